// `kbbench run <suite>`: runs a suite and reports; exit 0 every gate passed, 1 a gate failed, 2 bad input, 3 incomplete.
// Only the flags are loaded here (yargs reads them for --help and every parse); the session and what it
// needs are imported by the handler (run-action.ts), so `run --help` and a bad flag load none of it.
import type { CommandModule } from 'yargs';
import { DEFAULT_GATES } from '../../metrics/gates.js';
import type { ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { runFlags } from './run-flags.js';

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

export function runCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'run [suite..]',
    describe: 'run a suite against the embedded reference service or a live one (--base-url)',
    builder: (y) =>
      runFlags(y)
        .example('$0 run demo', 'the shipped demo suite against the embedded reference service, from any folder')
        .example('$0 run questions.csv threads.yaml --workspace kb/workspace.yaml', 'several files as one suite: one plan, one run directory, one model comparison')
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
        .example('$0 run --resume reports/traffic-demo-20261122T101500Z', 'finish an interrupted run, a traffic replay too: its suite or log and its load come from run.json')
        .example('$0 run suites/demo.yaml --baseline baselines/demo --markdown comment.md', 'fail (exit 1) on a regression against a kept run')
        .example('$0 run suites/demo.yaml --baseline baselines/demo --confirm 3', 're-ask each pass → fail item 3 more times: fail only if they fail too')
        .example('$0 run suites/demo.yaml --fail-on thresholds', 'only the thresholds gate: failed checks alone do not fail the run')
        .example("$0 run suites/demo.yaml --filter 'refund-*' --filter tag:billing", 'only the refund cases and those tagged billing')
        .example('$0 run suites/demo.yaml --only-failed reports/demo-20261122T101500Z', 'run again what failed there')
        .epilog(FAIL_ON_EPILOG),
    handler: async (argv) => (await import('./run-action.js')).runAction(io, setExit, argv as Record<string, unknown>),
  };
}
