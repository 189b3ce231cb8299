// `kbbench run <suite>`: runs a suite and reports; exit 0 every gate passed, 1 a gate failed, 2 bad input, 3 incomplete.
import type { CommandModule } from 'yargs';
import { DEFAULT_GATES } from '../../checks/gates.js';
import { renderConsoleSummary } from '../../report/index.js';
import { runSession, type SessionResult } from '../../session/run-session.js';
import { EXIT, exitForVerdict, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { withSessionConsole } from '../session-console.js';
import { runFlags, toSessionOptions } from './run-flags.js';
import { checkBaseline, runBaselineCompare } from './baseline.js';

/** What --help says about the verdict (README "Exit codes" says the same). */
export const FAIL_ON_EPILOG = [
  `Gates (--fail-on, default ${DEFAULT_GATES.join(',')}):`,
  '  checks       an answer failed its checks or its request failed, outside every pass_rate threshold',
  '               (those judge their items as a rate) and not marked expect_fail',
  '  thresholds   a threshold of the suite or --threshold failed',
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
        .example('$0 run suites/demo.yaml --rate 20 --duration 60s --max-in-flight 50', 'load test: 20 request starts per second for a minute')
        .example('$0 run suites/demo.yaml --rate 30 --duration 60s --shard auto/3 --start-at 2026-11-23T02:00:00Z', 'one of 3 shards (JOB_COMPLETION_INDEX 0-2) of a 30/s load test, all starting at one instant')
        .example('$0 run suites/demo.yaml --max-credits 5', 'stop before spending more than 5 credits')
        .example('$0 run suites/demo.yaml --resume reports/demo-20261122T101500Z', 'finish an interrupted run without paying twice')
        .example('$0 run suites/demo.yaml --baseline baselines/demo --markdown comment.md', 'fail (exit 1) on a regression against a kept run')
        .example('$0 run suites/demo.yaml --fail-on thresholds', 'only the thresholds gate: failed checks alone do not fail the run')
        .epilog(FAIL_ON_EPILOG),
    handler: async (argv) => {
      const options = toSessionOptions(argv as Record<string, unknown>, io.env, process.cwd());
      checkBaseline(argv as Record<string, unknown>);
      const quiet = argv.quiet === true;
      const json = argv.json === true;
      await withSessionConsole(io, { label: 'kbbench:', quiet, apiKey: options.apiKey }, async (hooks, settle) => {
        const result = await runSession(options, hooks);
        settle();
        const baselineFailed = typeof argv.baseline === 'string' ? await runBaselineCompare(io, argv, result, quiet || json) : false;
        if (json) io.out(JSON.stringify(result.summary, null, 2));
        else if (!quiet) {
          io.out(renderConsoleSummary(result.summary, { suiteName: result.run.suite.name }));
          io.out(`reports: ${result.runDir}/report.html (and summary.json, samples.csv, summary.csv, cases.csv, junit.xml)`);
          if (result.run.status !== 'completed') io.out(`stopped early (${result.run.status}); finish it with: kbbench run ${options.suitePath} --resume ${result.runDir}`);
        }
        setExit(exitFor(result, baselineFailed));
      });
    },
  };
}
