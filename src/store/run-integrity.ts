// Whether results.ndjson holds each item once: a second line of an item means two processes wrote
// the run at once (an older kbbench had no lock), or a hand edit copied a line, and its counts would
// be counted, and paid, twice. Report and compare refuse such a run (resume and merge have their own
// passes over the lines, with the same rule).
import { join } from 'node:path';
import { InputError } from '../domain/errors.js';
import { readResults } from './results-reader.js';
import { RUN_FILES } from './run-dir.js';

/** Each item's first line in a results file, and the first line that records an item again. */
export class ItemLines {
  private readonly firstLine = new Map<string, number>();
  private extra = 0;
  private again: { item: string; line: number; first: number } | null = null;

  /** Notes `item` at `line` (from 1). Memory: one id and one number per item of the file. */
  add(item: string, line: number): void {
    const first = this.firstLine.get(item);
    if (first === undefined) {
      this.firstLine.set(item, line);
      return;
    }
    this.extra += 1;
    this.again ??= { item, line, first };
  }

  /** Refuses (exit 2) when an item had two lines, naming the file, the line and the item. */
  assertUnique(file: string, then: string): void {
    if (this.again === null) return;
    const { item, line, first } = this.again;
    throw new InputError(
      `${this.extra} result line(s) record an item that already has one (first: ${item}, line ${line} repeats line ${first}): two processes wrote this run at once, or a line was copied, so its counts would be doubled. ` +
        `Keep one line per item (the first), then ${then}`,
      { file, line },
    );
  }
}

/** Refuses (exit 2) a run directory whose results file records an item twice. */
export async function assertUniqueItems(runDir: string): Promise<void> {
  const items = new ItemLines();
  const results = readResults(runDir);
  for await (const sample of results) items.add(sample.item_id, results.stats.line);
  items.assertUnique(join(runDir, RUN_FILES.results), 'run the report again');
}
