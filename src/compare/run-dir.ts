// Checks that a directory is a kbbench run (run.json and results.ndjson) before anything reads or sends.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo } from '../domain/run.js';
import { InputError } from '../domain/errors.js';

import { readRunInfo, RUN_FILES } from '../store/run-dir.js';

/**
 * `role` names the flag or argument in the message (`--baseline`, `<base-dir>`), so the user
 * knows which of two directories is wrong. Throws InputError (exit 2).
 */
export function assertRunDir(dir: string, role: string): RunInfo {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError(`not a run directory: ${dir} does not exist or is not a directory`, { file: dir, field: role });
  }
  const missing = [RUN_FILES.run, RUN_FILES.results].filter((name) => !existsSync(join(dir, name)));
  if (missing.length > 0) {
    throw new InputError(`not a run directory: ${dir} has no ${missing.join(' and no ')} (give a directory written by kbbench run)`, { file: dir, field: role });
  }
  return readRunInfo(dir);
}
