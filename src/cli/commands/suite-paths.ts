// The suite files a command names (`run a.csv b.yaml`, `run demo`), shared by run, validate and estimate.
import { existsSync } from 'node:fs';
import { InputError } from '../../domain/errors.js';
import type { RunConfig } from '../../config/run-config.js';
import { SHIPPED_SUITE_NAMES } from '../../suite/shipped.js';

/**
 * The suite files named: one, or several run as one suite (`run questions.csv threads.yaml`). A bare
 * `demo` or `load-demo` that is no file here is the shipped suite of that name, from any folder.
 * With none named, a `--traffic` log is the suite; with neither, a `--resume DIR` run's own suite (or log).
 */
/** The suite files of a run: the ones named, else the `--traffic` log, else `resumed` (run-config-of.ts reads it from run.json). */
export type SuitePaths = Pick<RunConfig['plan'], 'suitePath' | 'suitePaths' | 'suiteIsLog'>;

export function suitePathsOf(value: unknown, trafficLog?: string, resumed?: SuitePaths): SuitePaths {
  const named = (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
  // `run --traffic LOG` with no suite file: the log is the suite (its records bring prompts and checks).
  if (named.length === 0 && trafficLog !== undefined) return { suitePath: trafficLog, suiteIsLog: true };
  if (named.length === 0 && resumed !== undefined) return resumed;
  if (named.length === 0) {
    throw new InputError(
      'name a suite file to run (or a traffic log to replay alone, --traffic LOG): `kbbench init` writes a project of your own to start from (then `kbbench run suite.yaml`), and `kbbench run demo` runs the shipped demo',
      { field: 'suite' },
    );
  }
  const paths = named.map((path) => (SHIPPED_SUITE_NAMES[path] !== undefined && !existsSync(path) ? SHIPPED_SUITE_NAMES[path] : path));
  return { suitePath: paths[0]!, ...(paths.length > 1 ? { suitePaths: paths } : {}) };
}

