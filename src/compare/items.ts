// Matches the items of two runs by item_id (repeats pooled): regressions, fixes, changed answers, missing and added.
import { textSimilarity } from '../checks/similarity.js';
import { majorityPass, representativeText, type ItemDigest } from './collect.js';
import { sameAnswer, wordDiff } from './text-diff.js';
import type { ItemChange, ItemOnly, ItemRef, ItemSide } from './types.js';

export interface ItemMatch {
  /** Keys present on both sides, in report order. */
  matched: string[];
  regressions: ItemChange[];
  fixes: ItemChange[];
  /** Every matched item whose answer differs, regressions and fixes included. */
  changed: ItemChange[];
  missing: ItemOnly[];
  added: ItemOnly[];
}

export function sideOf(item: ItemDigest): ItemSide {
  return {
    runs: item.runs,
    passed: item.passed,
    pass: majorityPass(item),
    text: representativeText(item),
    failed_checks: [...item.failedChecks],
    errors: [...item.errors],
    ...(item.notJudged ? { not_judged: item.notJudged } : {}),
  };
}

/** Failed on a judgement: a side that did not pass only because its checks could not be judged is no failure. */
function judgedFailure(side: ItemSide): boolean {
  return !side.pass && side.runs - side.passed - (side.not_judged ?? 0) > 0;
}

function refOf(item: ItemDigest, other?: ItemDigest): ItemRef {
  const ids = new Set([...item.ids, ...(other?.ids ?? [])]);
  return {
    item_id: item.key, item_ids: [...ids].sort(), case_id: item.case_id, thread_id: item.thread_id, turn: item.turn,
    model: item.model, prompt: item.prompt ?? other?.prompt ?? null,
  };
}

function changeOf(base: ItemDigest, head: ItemDigest): ItemChange {
  const b = sideOf(base);
  const h = sideOf(head);
  const same = sameAnswer(b.text, h.text);
  return {
    ...refOf(head, base),
    base: b,
    head: h,
    similarity: same ? 1 : round(textSimilarity(b.text, h.text), 4),
    diff: same ? [] : wordDiff(b.text, h.text),
  };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** Cases before threads, then by id, turn and model: the same order however the runs' lines were interleaved. */
export function compareItemOrder(a: ItemRef, b: ItemRef): number {
  const kind = (r: ItemRef): number => (r.thread_id === null ? 0 : 1);
  return (
    kind(a) - kind(b) ||
    (a.case_id ?? a.thread_id ?? '').localeCompare(b.case_id ?? b.thread_id ?? '') ||
    (a.turn ?? 0) - (b.turn ?? 0) ||
    a.model.localeCompare(b.model) ||
    a.item_id.localeCompare(b.item_id)
  );
}

export function matchItems(base: ReadonlyMap<string, ItemDigest>, head: ReadonlyMap<string, ItemDigest>): ItemMatch {
  const result: ItemMatch = { matched: [], regressions: [], fixes: [], changed: [], missing: [], added: [] };
  const matched: ItemChange[] = [];
  for (const [key, b] of base) {
    const h = head.get(key);
    if (h) matched.push(changeOf(b, h));
    else result.missing.push({ ...refOf(b), side: sideOf(b) });
  }
  for (const [key, h] of head) if (!base.has(key)) result.added.push({ ...refOf(h), side: sideOf(h) });
  matched.sort(compareItemOrder);
  for (const change of matched) {
    result.matched.push(change.item_id);
    if (change.base.pass && judgedFailure(change.head)) result.regressions.push(change);
    if (judgedFailure(change.base) && change.head.pass) result.fixes.push(change);
    if (change.diff.length > 0) result.changed.push(change);
  }
  result.missing.sort(compareItemOrder);
  result.added.sort(compareItemOrder);
  return result;
}
