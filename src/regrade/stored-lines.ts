// The source run's result lines by item id: what a regrade judges again.
import type { Sample } from '../domain/sample.js';
import { formatItemId, type ItemId } from '../plan/item-id.js';
import { readResults } from '../store/results-reader.js';

export interface StoredLines {
  /** The first line recorded for the item (a resumed run has one per item); null when it has none. */
  lineOf(id: ItemId): Sample | null;
  /** Lines that hold a case's or a turn's request (create lines not counted). */
  answerCount(): number;
}

/**
 * Held in memory, keyed by item id: the plan is walked in its own order and a run's lines are in
 * the order they finished. Warm-up lines were never part of the run's results.
 */
export async function readStoredLines(runDir: string): Promise<StoredLines> {
  const byId = new Map<string, Sample>();
  let answers = 0;
  for await (const sample of readResults(runDir)) {
    if (sample.warmup === true || byId.has(sample.item_id)) continue;
    byId.set(sample.item_id, sample);
    if (sample.case_id !== null || sample.turn !== null) answers += 1;
  }
  return { lineOf: (id) => byId.get(formatItemId(id)) ?? null, answerCount: () => answers };
}
