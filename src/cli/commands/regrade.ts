// `kbbench regrade <run-dir>`: judges a run's stored answers again with the suite's current checks, sending nothing to the service.
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { RUN_DEFAULTS } from '../../config/defaults.js';
import { parseFailOn } from '../../metrics/gates.js';
import type { CliIo } from '../io.js';
import { EXIT, exitForVerdict, type ExitCode } from '../exit.js';
import { parseDurationMs } from '../parse.js';
import { TOOL_VERSION } from '../version.js';
import { FAIL_ON_EPILOG } from './run.js';
import { compareTuningOptions } from './compare-flags.js';
import { graderCacheFlags, graderCacheOptions, graderFlags, graderOptions } from './grader-flags.js';

/** The grader flags but --grader-chat: a chat of the service would be asked, and a regrade asks the service nothing. */
function outsideGraderFlags() {
  const { 'grader-chat': _chat, ...outside } = graderFlags('Grader:');
  return outside;
}

export function regradeCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'regrade <run-dir>',
    describe: "judge a run's stored answers again with the suite's current checks and grader (sends nothing to the service)",
    builder: (y) =>
      y
        .positional('run-dir', { type: 'string', demandOption: true, describe: 'the run whose answers to judge (kbbench run wrote it)' })
        .option('suite', { type: 'string', describe: "the suite whose checks judge the answers (default: the run's own suite file)", group: 'Checks:' })
        .option('out', { type: 'string', describe: 'the new run directory (default reports/<suite>-<timestamp>)', group: 'Output:' })
        .option('label', { type: 'string', describe: 'a label for this run, recorded in run.json; kbbench history shows it', group: 'Output:' })
        .option('quiet', { type: 'boolean', default: false, describe: 'print the verdict line and the report path only', group: 'Output:' })
        .option('json', { type: 'boolean', default: false, describe: 'print summary.json on stdout', group: 'Output:' })
        .option('baseline', { type: 'string', describe: 'compare with an earlier run directory; exit 1 on regression', group: 'Checks:' })
        .options(compareTuningOptions('Checks:'))
        .option('timeout', { type: 'string', default: RUN_DEFAULTS.timeout, describe: "the grader's time limit per request (0: none)", group: 'Grader:' })
        .option('retries', { type: 'number', default: RUN_DEFAULTS.retries, describe: "retries of the grader's requests on 429, 5xx and connection errors", group: 'Grader:' })
        .options(outsideGraderFlags())
        .options(graderCacheFlags('Grader:'))
        .example('$0 regrade reports/nightly --out reports/pr-checks', "judge last night's answers with the checks of this checkout: no question is asked again")
        .example('$0 regrade reports/nightly --suite suites/demo.yaml --baseline reports/nightly', 'the new checks against the old verdicts: exit 1 on a regression')
        .example('$0 regrade reports/nightly --grader-url http://127.0.0.1:8000/v1 --grader-model judge-2', 'the same answers judged by another grader')
        .example('$0 regrade reports/nightly --grader-cache .kbbench-cache', 'verdicts of unchanged model-graded checks taken from the cache: no grader call for them')
        .example('$0 regrade reports/nightly --fail-on checks,thresholds', 'allow questions that changed or were never asked (else verdict incomplete, exit 3)')
        .epilog([
          FAIL_ON_EPILOG,
          "A regrade's questions whose stored answer asked another question are not judged (gate judged),",
          'and those its source never asked have no answer (gate missing).',
        ].join('\n')),
    handler: async (argv) => {
      const a = argv as Record<string, unknown>;
      const { regradeRun } = await import('../../regrade/regrade-run.js');
      const baselineStep = typeof a.baseline === 'string' ? await import('./baseline.js') : undefined;
      const baseline = baselineStep?.checkBaseline(a);
      const failOn = parseFailOn(a.failOn as string | undefined);
      const result = await regradeRun({
        sourceDir: a.runDir as string,
        ...(typeof a.suite === 'string' ? { suitePath: a.suite } : {}),
        ...(typeof a.out === 'string' ? { outDir: a.out } : {}),
        reportsRoot: `${io.cwd}/reports`,
        ...graderOptions(a, io.env),
        ...graderCacheOptions(a, io.env, io.cwd),
        ...(failOn ? { failOn } : {}),
        ...(typeof a.label === 'string' && a.label !== '' ? { label: a.label } : {}),
        ...(io.env.GITHUB_SHA ? { commit: io.env.GITHUB_SHA } : {}),
        ...(baseline && a.allowDifferentSuites !== true ? { baselineSuite: { name: baseline.suite.name, dir: resolve(a.baseline as string) } } : {}),
        toolVersion: TOOL_VERSION,
        timeoutMs: parseDurationMs(a.timeout as string, 'timeout'),
        retries: a.retries as number,
      }, {
        signal: new AbortController().signal,
        onStart: (info) => {
          if (a.quiet !== true && a.json !== true) io.err(`kbbench: regrading ${info.total} answers of ${info.sourceDir} into ${info.runDir} (nothing is sent to the service)`);
          for (const warning of info.warnings) io.err(`warning: ${warning}`);
        },
      });
      const quiet = a.quiet === true || a.json === true;
      const baselineFailed = baselineStep ? await baselineStep.runBaselineCompare(io, a, result, quiet) : false;
      const { renderConsoleSummary, verdictLine } = await import('../../report/console-summary.js');
      const r = result.run.regrade!;
      if (a.json === true) io.out(JSON.stringify(result.summary, null, 2));
      else if (a.quiet === true) io.out(verdictLine(result.summary, { suiteName: result.run.suite.name }));
      else {
        io.out(renderConsoleSummary(result.summary, { suiteName: result.run.suite.name, runDir: result.runDir }));
        io.out(`regrade of ${r.source_run_id}: ${r.judged_again} answers judged again, ${r.kept_failed} failed requests kept, ${r.question_changed} not judged (the question changed since it was answered), ${r.never_asked} never asked`);
      }
      if (a.json !== true) io.out(`reports: ${result.runDir}/report.html`);
      const code = exitForVerdict(result.summary.verdict);
      setExit(code === EXIT.ok && baselineFailed ? EXIT.failed : code);
    },
  };
}
