// What a recorded run selected: `--only-failed RUN_DIR` (the cases and threads that failed there) and a
// run's own --filter/--only-failed as run.json records them. store/ owns it because both are read from
// run directories; session/ (a new run's selection), compare/ and report (a head's plan) ask here.
import { InputError } from '../domain/errors.js';
import { readResults } from './results-reader.js';
import { assertRunDir } from './run-dir.js';
import type { RunInfo } from '../domain/run.js';
import { parseFilters, type SuiteFilter } from '../suite/filter.js';

/**
 * A filter keeping the cases and threads with a failed result in `runDir` (a failed check or a
 * request error, on any model or repeat; a thread whole, since its turns build on each other).
 * Memory: one id per failed case or thread, never the run's results.
 */
export async function onlyFailedFilter(runDir: string): Promise<SuiteFilter> {
  assertRunDir(runDir, '--only-failed');
  const cases = new Set<string>();
  const threads = new Set<string>();
  for await (const sample of readResults(runDir)) {
    if (sample.pass || sample.outcome === 'skipped') continue;
    if (sample.case_id !== null) cases.add(sample.case_id);
    else if (sample.thread_id !== null) threads.add(sample.thread_id);
  }
  if (cases.size === 0 && threads.size === 0) {
    throw new InputError(`nothing failed in ${runDir}: there is nothing to run again`, { field: '--only-failed' });
  }
  return (subject) => (subject.kind === 'case' ? cases : threads).has(subject.id);
}

/**
 * A recorded run's --filter and --only-failed as it applied them (undefined: it ran the whole
 * suite). Null when that cannot be known (the --only-failed run directory is gone or unreadable):
 * then which cases the run meant to send is unknown, and callers say less rather than guess.
 */
export async function recordedSelection(run: RunInfo): Promise<SuiteFilter | undefined | null> {
  const options = run.config.plan;
  const byPattern = parseFilters(options.filter ?? []);
  let byFailure: SuiteFilter | undefined;
  if (options.onlyFailedDir !== undefined) {
    try {
      byFailure = await onlyFailedFilter(options.onlyFailedDir);
    } catch {
      return null;
    }
  }
  if (!byPattern && !byFailure) return undefined;
  return (subject) => (byPattern?.(subject) ?? true) && (byFailure?.(subject) ?? true);
}
