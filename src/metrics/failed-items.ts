// The first failed items of a run, with why: what the console lists after its table (bounded).
import type { Sample } from '../domain/sample.js';
import type { FailedItem, FailedItems } from '../domain/summary.js';

/** How many failed items summary.json and the console name; the rest are in samples.csv and junit.xml. */
export const FAILED_ITEMS_SHOWN = 10;

/** Why a sample failed, in one line: its first failing check's detail, or its request error. */
export function failureDetail(sample: Sample): string {
  if (sample.outcome !== 'ok') return `${sample.outcome}${sample.status === null ? '' : ` ${sample.status}`}: ${sample.error?.message ?? 'no answer'}`;
  const check = sample.checks.find((c) => !c.pass);
  return check === undefined ? 'failed' : `${check.type}: ${check.detail}`;
}

export interface FailedItemsCollector {
  add(sample: Sample): void;
  result(): FailedItems;
}

/** Keeps the first FAILED_ITEMS_SHOWN failures in run order and counts the rest: memory stays flat. */
export function createFailedItems(limit = FAILED_ITEMS_SHOWN): FailedItemsCollector {
  const shown: FailedItem[] = [];
  let total = 0;
  return {
    add(sample) {
      // A skipped turn is not judged (the turn that ended its conversation is the failure).
      if (sample.pass || sample.outcome === 'skipped') return;
      total += 1;
      if (shown.length < limit) shown.push({ item_id: sample.item_id, model: sample.model, detail: failureDetail(sample) });
    },
    result: () => ({ total, shown: [...shown] }),
  };
}
