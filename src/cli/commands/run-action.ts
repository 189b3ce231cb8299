// `kbbench run`'s handler, imported only when a run starts (run.ts holds the flags): the session,
// reports and console it needs are loaded then, not for --help or a rejected flag.
import { resolve } from 'node:path';
import { renderConsoleSummary, verdictLine } from '../../report/console-summary.js';
import type { RunInfo } from '../../domain/run.js';
import type { Sample } from '../../domain/sample.js';
import type { RunConfig } from '../../config/run-config.js';
import { noResumeOf } from '../../load/index.js';
import { runSession, type SessionResult } from '../../session/run-session.js';
import { EXIT, exitForVerdict, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { withSessionConsole } from '../session-console.js';
import { runCredentials } from '../../session/redact-sample.js';
import { toSessionOptions } from './run-config-of.js';
import type { ConfirmStep } from './baseline.js';
import { outputReportLine } from '../../outputs/report-line.js';
import { collectBetweenSteps } from '../../metrics/heap-steps.js';
import { holdYoungGeneration } from '../../session/young-generation.js';

/** An incomplete run is 3 whatever the baseline says; a finished one fails (1) on any gate of --fail-on. */
function exitFor(result: SessionResult, baselineFailed: boolean): ExitCode {
  const code = exitForVerdict(result.summary.verdict);
  return code === EXIT.ok && baselineFailed ? EXIT.failed : code;
}

export async function runAction(io: CliIo, setExit: (code: ExitCode) => void, argv: Record<string, unknown>): Promise<void> {
  const options = toSessionOptions(argv, io.env, io.cwd);
  // --traffic: the log is read once before the run (checked whole, its shape and think times), then replayed as a stream.
  if (typeof argv.traffic === 'string' && 'asked' in options.load) {
    const { readTrafficSource } = await import('../../load/kinds/traffic/log-shape.js');
    // The shape pass reads the whole log and keeps a few MB: its young generation need not grow (10M
    // records: the new space grew to the cap for garbage; session/young-generation.ts).
    const release = holdYoungGeneration();
    try {
      options.load.asked.traffic = await readTrafficSource(resolve(io.cwd, argv.traffic), options.load.asked.trafficWindowMs);
    } finally {
      release();
    }
    // What the pass threw away goes now, before the replay's first second (its cold start can put
    // every --max-in-flight request in flight at once), not on top of it.
    collectBetweenSteps();
  }
  const watchProfile = typeof argv.profile === 'string' ? await applyProfile(io, options, argv) : undefined;
  // The comparison (and its statistics and HTML) is loaded only for a run that compares.
  const baselineStep = typeof argv.baseline === 'string' || argv.confirm !== undefined ? await import('./baseline.js') : undefined;
  const baseline = baselineStep?.checkBaseline(argv);
  if (baseline && argv.allowDifferentSuites !== true) options.gates.baselineSuite = { name: baseline.suite.name, dir: resolve(argv.baseline as string) };
  baselineStep?.confirmRepeatsOf(argv);
  const quiet = argv.quiet === true;
  const json = argv.json === true;
  await withSessionConsole(io, { label: 'kbbench:', quiet, apiKey: options.target.apiKey, apiKeyFile: argv.apiKeyFile as string | undefined, credentials: runCredentials(options, io.env) }, async (hooks, settle) => {
    const result = await runSession(options, watchProfile ? { ...hooks, onProgress: (p, sample) => (watchProfile(sample), hooks.onProgress?.(p, sample)) } : hooks);
    settle();
    const confirm: ConfirmStep = async (comparison, repeats) => (await import('../../confirm/confirm-flips.js')).confirmFlips(options, result.runDir, comparison, repeats, hooks);
    const baselineFailed = baselineStep && typeof argv.baseline === 'string' ? await baselineStep.runBaselineCompare(io, argv, result, quiet || json, confirm) : false;
    if (json) io.out(JSON.stringify(result.summary, null, 2));
    else if (quiet) {
      // --quiet: the verdict and where the reports are, nothing else.
      io.out(verdictLine(result.summary, { suiteName: result.run.suite.name }));
      io.out(`reports: ${result.runDir}/report.html`);
    } else {
      io.out(renderConsoleSummary(result.summary, { suiteName: result.run.suite.name, runDir: result.runDir }));
      io.out(`reports: ${result.runDir}/report.html (and summary.json, samples.csv, summary.csv, cases.csv, junit.xml)`);
      for (const report of result.run.outputs ?? []) io.out(outputReportLine(report));
      if (result.run.status === 'aborted') io.out(`aborted: ${result.run.abort?.detail ?? result.run.stop_reason ?? ''}`);
      else if (result.run.status !== 'completed') io.out(stoppedEarlyLine(result.run, options.plan.suiteIsLog ? '' : (options.plan.suitePaths ?? [options.plan.suitePath]).join(' '), result.runDir));
    }
    setExit(exitFor(result, baselineFailed));
  });
}

/** What to do after an early stop: a `--resume` command only where a resume works (src/load/: the kind says). */
function stoppedEarlyLine(run: RunInfo, suitePath: string, runDir: string): string {
  const noResume = noResumeOf(run.load.spec);
  if (noResume !== null) return `stopped early (${run.status}); ${noResume}`;
  // A replayed log that is its own suite is named by run.json: `run --resume DIR` finds it.
  return `stopped early (${run.status}); finish it with: kbbench run ${suitePath ? `${suitePath} ` : ''}--resume ${runDir}`;
}

/** `--profile doctor.json`: its key form and dialect become the run's (a contradicting flag is exit 2); a watcher warns once. */
async function applyProfile(io: CliIo, options: RunConfig, argv: Record<string, unknown>): Promise<(sample: Sample) => void> {
  const { readProfile, profileOptions, profileWatcher, targetWarning } = await import('../../doctor/profile.js');
  const profile = readProfile(resolve(io.cwd, String(argv.profile)));
  Object.assign(options.target, profileOptions(profile, { auth: argv.auth, dialect: argv.dialect }));
  const mismatch = targetWarning(profile, options.target.baseUrl);
  if (mismatch) io.err(`warning: ${mismatch}`);
  return profileWatcher(profile, (text) => io.err(`\nwarning: ${text}`));
}
