// The run config of the `run` (and `estimate`) flags, parsed by the config's one schema. Apart from
// run-flags.ts so that `run --help`, which loads the flags, loads neither the schema (zod) nor run.json's reader.
import { parseRunConfig, type RunConfig } from '../../config/run-config.js';
import { readRunInfo } from '../../store/run-dir.js';
import { runConfigInputOf } from './run-flags.js';
import type { SuitePaths } from './suite-paths.js';

export function toSessionOptions(a: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): RunConfig {
  const named = Array.isArray(a.suite) ? a.suite.length > 0 : a.suite !== undefined;
  const resumed = !named && a.traffic === undefined && typeof a.resume === 'string' ? recordedSuite(a.resume) : undefined;
  return parseRunConfig(runConfigInputOf(a, env, cwd, resumed));
}

/** `run --resume DIR` naming no suite: the one run.json names; a replayed log that was its own suite is the suite again. */
function recordedSuite(runDir: string): SuitePaths {
  const run = readRunInfo(runDir);
  const files = run.suite.files ?? [];
  // A log run's suite is the log itself: its path is the replay's file (load/kinds/traffic/log-suite.ts).
  const replayed = 'file' in run.load.spec ? run.load.spec.file : undefined;
  if (replayed === run.suite.path) return { suitePath: run.suite.path, suiteIsLog: true };
  return { suitePath: run.suite.path, ...(files.length > 1 ? { suitePaths: files } : {}) };
}
