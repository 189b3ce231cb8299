// Whether results.ndjson holds each item once: a second line of an item means two processes wrote
// the run at once (an older kbbench had no lock), and its counts would be counted, and paid, twice.
import { join } from 'node:path';
import { InputError } from '../domain/errors.js';
import { readResults } from './results-reader.js';
import { RUN_FILES } from './run-dir.js';

/**
 * Refuses (exit 2) a results file that records an item twice, naming the first such item and how
 * many lines are extra, as merge does for shards. Memory: one id per item of the file.
 */
export async function assertUniqueItems(runDir: string): Promise<void> {
  const seen = new Set<string>();
  let extra = 0;
  let first: string | null = null;
  for await (const sample of readResults(runDir)) {
    if (!seen.has(sample.item_id)) {
      seen.add(sample.item_id);
      continue;
    }
    extra += 1;
    first ??= sample.item_id;
  }
  if (extra === 0) return;
  throw new InputError(
    `${extra} result line(s) record an item that already has one (first: ${first}): two processes wrote this run at once, so its counts would be doubled. ` +
      'Keep one line per item (the first), then run the report again',
    { file: join(runDir, RUN_FILES.results) },
  );
}
