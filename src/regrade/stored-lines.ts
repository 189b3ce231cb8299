// The source run's result lines by item id: what a regrade judges again.
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from '../domain/sample.js';
import { formatItemId, type ItemId } from '../plan/item-id.js';
import { readSampleAt, readSampleOffsets } from '../store/results-reader.js';
import { RUN_FILES } from '../store/run-dir.js';
import { openRunFile } from '../store/run-file.js';

export interface StoredLines {
  /** The first line recorded for the item (a resumed run has one per item); null when it has none. */
  lineOf(id: ItemId): Sample | null;
  /** Lines that hold a case's or a turn's request (create lines not counted). */
  answerCount(): number;
  close(): void;
}

/**
 * The plan is walked in its own order and a run's lines are in the order they finished, so each
 * line is found by its item id: only the byte offset of each item's first line is held, and the
 * line is read again when the plan reaches it (a million answers' text never sits in memory).
 * Warm-up lines were never part of the run's results.
 */
export async function readStoredLines(runDir: string): Promise<StoredLines> {
  const path = join(runDir, RUN_FILES.results);
  const offsets = new Map<string, number>();
  let answers = 0;
  for await (const { sample, offset } of readSampleOffsets(path)) {
    if (sample.warmup === true || offsets.has(sample.item_id)) continue;
    offsets.set(sample.item_id, offset);
    if (sample.case_id !== null || sample.turn !== null) answers += 1;
  }
  // Opened at the first line asked for (a run with no results has no file), closed when regrading ends.
  let fd: number | null = null;
  return {
    lineOf: (id) => {
      const offset = offsets.get(formatItemId(id));
      if (offset === undefined) return null;
      fd ??= openRunFile(path);
      return readSampleAt(fd, offset);
    },
    answerCount: () => answers,
    close: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
