// `kbbench run <suite>`: runs a suite and reports; exit 0 every gate passed, 1 a gate failed, 2 bad input, 3 incomplete.
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { DEFAULT_GATES } from '../../metrics/gates.js';
import { renderConsoleSummary, verdictLine } from '../../report/index.js';
import type { RunInfo } from '../../domain/run.js';
import { LOAD_KINDS } from '../../load/index.js';
import { runSession, type SessionResult } from '../../session/run-session.js';
import { EXIT, exitForVerdict, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { withSessionConsole } from '../session-console.js';
import { runFlags, toSessionOptions } from './run-flags.js';
import { checkBaseline, confirmRepeatsOf, runBaselineCompare, type ConfirmStep } from './baseline.js';
import { confirmFlips } from '../../session/confirm-flips.js';

/** What --help says about the verdict (README "Exit codes" says the same). */
export const FAIL_ON_EPILOG = [
  `Gates (--fail-on, default ${DEFAULT_GATES.join(',')}):`,
  '  checks       an answer failed its checks or its request failed, outside every pass_rate threshold',
  '               (those judge their items as a rate) and not marked expect_fail',
  '  thresholds   a threshold of the suite or --threshold failed',
  '  judged       a model-graded check could not be judged (its grader failed): verdict incomplete, exit 3',
  '  dropped      an open loop did not deliver its planned starts (never sent, or sent over 1 s late: the',
  "               in-flight cap held them); a `dropped` threshold (e.g. 'dropped: rate<0.01') judges it instead",
  '  regressions, latency, credits, changed, missing: the comparison with --baseline',
  'Exit: 0 every gate passed, 1 a gate failed, 2 invalid input (nothing sent), 3 incomplete (the run did not finish).',
].join('\n');

/** An incomplete run is 3 whatever the baseline says; a finished one fails (1) on any gate of --fail-on. */
function exitFor(result: SessionResult, baselineFailed: boolean): ExitCode {
  const code = exitForVerdict(result.summary.verdict);
  return code === EXIT.ok && baselineFailed ? EXIT.failed : code;
}

export function runCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'run <suite>',
    describe: 'run a suite against the embedded reference service or a live one (--base-url)',
    builder: (y) =>
      runFlags(y)
        .example('$0 run suites/demo.yaml', 'the demo suite against the embedded reference service')
        .example('$0 run suites/demo.yaml --models gpt-4o,gpt-4o-mini --repeat 3', 'compare two models, three samples each')
        .example('KBBENCH_API_KEY=… $0 run faq.csv --base-url https://api.example.com --board B --chat C', 'a CSV suite against the live service')
        .example('$0 run suites/demo.yaml --rate 20 --duration 60s --max-in-flight 50', 'load test: 20 starts per second for a minute (a start is a case, or a whole thread)')
        .example('$0 run suites/load-demo.yaml', "the suite's own load: block: a one-minute ramp that finds the embedded service's knee")
        .example('$0 run suites/demo.yaml --stages 30s:5,1m:20,30s:0 --max-in-flight 64', 'ramp the arrival rate from 0 to 5, then 20 starts/s, then down to 0')
        .example('$0 run suites/demo.yaml --rate 10 --duration 1m --arrival poisson --seed 7', 'Poisson arrivals at 10 starts/s on average, reproducible')
        .example("$0 run suites/demo.yaml --rate 10 --duration 1m --threshold 'errors=rate<0.05;abortOnFail;delayAbortEval=10s'", 'stop the run (exit 1) as soon as more than 5% of requests fail, judged from 10 s on')
        .example('$0 run suites/demo.yaml --rate 10 --duration 1m --max-error-rate 20% --error-window 10s', 'stop cleanly (exit 3) when a fifth of the last 10 s of results failed')
        .example("$0 run suites/demo.yaml --sweep 5 --duration 30s --slo 'ttfc_ms=p(95)<2000' --slo 'pass_rate=rate>0.9'", 'sweep: probe one at a time and at saturation, run 5 constant rates between them (30 s each) and report the highest meeting both SLOs')
        .example('$0 run suites/demo.yaml --concurrency-stages 30s:4,1m:16,30s:0', 'closed loop: ramp from 0 to 4, then 16 workers, then down, for two minutes')
        .example('$0 run suites/demo.yaml --rate 5 --duration 2m --mix weighted --seed 3', 'draw cases and threads by their `weight`, reproducibly')
        .example('$0 run suites/demo.yaml --rate 30 --duration 60s --shard auto/3 --start-at 2026-11-23T02:00:00Z', 'one of 3 shards (JOB_COMPLETION_INDEX 0-2) of a 30/s load test, all starting at one instant')
        .example('$0 run suites/demo.yaml --max-credits 5', 'stop before spending more than 5 credits')
        .example('$0 run suites/demo.yaml --resume reports/demo-20261122T101500Z', 'finish an interrupted run without paying twice')
        .example('$0 run suites/demo.yaml --baseline baselines/demo --markdown comment.md', 'fail (exit 1) on a regression against a kept run')
        .example('$0 run suites/demo.yaml --baseline baselines/demo --confirm 3', 're-ask each pass → fail item 3 more times: fail only if they fail too')
        .example('$0 run suites/demo.yaml --fail-on thresholds', 'only the thresholds gate: failed checks alone do not fail the run')
        .example("$0 run suites/demo.yaml --filter 'refund-*' --filter tag:billing", 'only the refund cases and those tagged billing')
        .example('$0 run suites/demo.yaml --only-failed reports/demo-20261122T101500Z', 'run again what failed there')
        .epilog(FAIL_ON_EPILOG),
    handler: async (argv) => {
      const options = toSessionOptions(argv as Record<string, unknown>, io.env, io.cwd);
      const baseline = checkBaseline(argv as Record<string, unknown>);
      if (baseline && argv.allowDifferentSuites !== true) options.baselineSuite = { name: baseline.suite.name, dir: resolve(argv.baseline as string) };
      confirmRepeatsOf(argv as Record<string, unknown>);
      const quiet = argv.quiet === true;
      const json = argv.json === true;
      await withSessionConsole(io, { label: 'kbbench:', quiet, apiKey: options.apiKey, apiKeyFile: argv.apiKeyFile as string | undefined, graderApiKey: options.graderApiKey }, async (hooks, settle) => {
        const result = await runSession(options, hooks);
        settle();
        const confirm: ConfirmStep = (comparison, repeats) => confirmFlips(options, result.runDir, comparison, repeats, hooks);
        const baselineFailed = typeof argv.baseline === 'string' ? await runBaselineCompare(io, argv, result, quiet || json, confirm) : false;
        if (json) io.out(JSON.stringify(result.summary, null, 2));
        else if (quiet) {
          // --quiet: the verdict and where the reports are, nothing else.
          io.out(verdictLine(result.summary, { suiteName: result.run.suite.name }));
          io.out(`reports: ${result.runDir}/report.html`);
        } else {
          io.out(renderConsoleSummary(result.summary, { suiteName: result.run.suite.name, runDir: result.runDir }));
          io.out(`reports: ${result.runDir}/report.html (and summary.json, samples.csv, summary.csv, cases.csv, junit.xml)`);
          if (result.run.status === 'aborted') io.out(`aborted: ${result.run.abort?.detail ?? result.run.stop_reason ?? ''}`);
          else if (result.run.status !== 'completed') io.out(stoppedEarlyLine(result.run, options.suitePath, result.runDir));
        }
        setExit(exitFor(result, baselineFailed));
      });
    },
  };
}

/** What to do after an early stop: a `--resume` command only where a resume works (src/load/: the kind says). */
function stoppedEarlyLine(run: RunInfo, suitePath: string, runDir: string): string {
  const noResume = LOAD_KINDS[run.load.spec.kind].noResume;
  if (noResume !== undefined) return `stopped early (${run.status}); ${noResume}`;
  return `stopped early (${run.status}); finish it with: kbbench run ${suitePath} --resume ${runDir}`;
}
