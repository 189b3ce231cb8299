// `kbbench run <suite>`: runs a suite and reports; exit 0 pass, 1 a check/threshold/baseline failed, 3 stopped.
import type { CommandModule } from 'yargs';
import { renderConsoleSummary } from '../../report/index.js';
import { runSession, type SessionResult } from '../../session/run-session.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { withSessionConsole } from '../session-console.js';
import { runFlags, toSessionOptions } from './run-flags.js';
import { checkBaseline, runBaselineCompare } from './baseline.js';

function exitFor(result: SessionResult, baselineFailed: boolean): ExitCode {
  if (result.run.status !== 'completed') return EXIT.stopped;
  return result.summary.verdict === 'pass' && !baselineFailed ? EXIT.ok : EXIT.failed;
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
        .example('$0 run suites/demo.yaml --max-credits 5', 'stop before spending more than 5 credits')
        .example('$0 run suites/demo.yaml --resume reports/demo-20261122T101500Z', 'finish an interrupted run without paying twice')
        .example('$0 run suites/demo.yaml --baseline baselines/demo --markdown comment.md', 'fail (exit 1) on a regression against a kept run')
        .example("$0 run suites/demo.yaml --filter 'refund-*' --filter tag:billing", 'only the refund cases and those tagged billing')
        .example('$0 run suites/demo.yaml --only-failed reports/demo-20261122T101500Z', 'run again what failed there'),
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
          io.out(renderConsoleSummary(result.summary, { suiteName: result.run.suite.name, runDir: result.runDir }));
          io.out(`reports: ${result.runDir}/report.html (and summary.json, samples.csv, summary.csv, cases.csv, junit.xml)`);
          if (result.run.status !== 'completed') io.out(`stopped early (${result.run.status}); finish it with: kbbench run ${options.suitePath} --resume ${result.runDir}`);
        }
        setExit(exitFor(result, baselineFailed));
      });
    },
  };
}
