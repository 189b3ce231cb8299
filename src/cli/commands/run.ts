// `kbbench run <suite>`: runs a suite and reports; exit 0 pass, 1 a check/threshold/baseline failed, 3 stopped.
import type { CommandModule } from 'yargs';
import { renderConsoleSummary } from '../../report/index.js';
import { runSession, type SessionResult } from '../../session/run-session.js';
import { startEmbeddedService } from '../embedded.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { createProgress } from '../progress.js';
import { redactor } from '../secrets.js';
import { installStopSignals } from '../signals.js';
import { runFlags, toSessionOptions } from './run-flags.js';
import { checkBaseline, runBaselineCompare } from './baseline.js';

const GRACE_MS = 10_000;

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
        .example('$0 run suites/demo.yaml --baseline baselines/demo --markdown comment.md', 'fail (exit 1) on a regression against a kept run'),
    handler: async (argv) => {
      const options = toSessionOptions(argv as Record<string, unknown>, io.env, process.cwd());
      checkBaseline(argv as Record<string, unknown>);
      io.setRedact(redactor([options.apiKey]));
      const quiet = argv.quiet === true;
      const json = argv.json === true;
      const signals = installStopSignals(GRACE_MS, (t) => io.err(t));
      const progress = createProgress(io.stderr, !quiet);
      try {
        const result = await runSession(options, {
          launchEmbedded: (embedded) => startEmbeddedService(embedded),
          stop: signals.stop,
          abort: signals.abort,
          onStart: (info) => {
            for (const w of info.warnings) io.err(`warning: ${w}`);
            if (!quiet) io.err(`kbbench: ${info.total} requests against ${info.embedded ? `the embedded reference service (${info.baseUrl})` : info.baseUrl} → ${info.runDir}`);
          },
          onProgress: (p) => progress.update(p),
          onStopping: (reason, detail) => {
            if (reason === 'budget-exhausted') io.err(`\nkbbench: ${detail}; starting no new requests.`);
          },
        });
        progress.stop();
        const baselineFailed = typeof argv.baseline === 'string' ? await runBaselineCompare(io, argv, result, quiet || json) : false;
        if (json) io.out(JSON.stringify(result.summary, null, 2));
        else if (!quiet) {
          io.out(renderConsoleSummary(result.summary, { suiteName: result.run.suite.name }));
          io.out(`reports: ${result.runDir}/report.html (and summary.json, samples.csv, summary.csv, junit.xml)`);
          if (result.run.status !== 'completed') io.out(`stopped early (${result.run.status}); finish it with: kbbench run ${options.suitePath} --resume ${result.runDir}`);
        }
        setExit(exitFor(result, baselineFailed));
      } finally {
        progress.stop();
        signals.dispose();
      }
    },
  };
}
