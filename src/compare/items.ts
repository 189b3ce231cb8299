// Matches the items of two runs by item_id (repeats pooled) and their checks by position: regressions, fixes, changed answers, missing and added.
import { textSimilarity } from '../checks/similarity.js';
import { checkVerdict, majorityPass, representativeAnswer, type ItemDigest } from './collect.js';
import { wordDiff } from './text-diff.js';
import type { CheckRegression, ItemChange, ItemOnly, ItemRef, ItemSide } from './types.js';

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
  const answer = representativeAnswer(item);
  return {
    runs: item.runs,
    passed: item.passed,
    pass: majorityPass(item),
    text: answer.text,
    ...(answer.chars > answer.text.length ? { text_cut: { shown: answer.text.length, chars: answer.chars } } : {}),
    failed_checks: [...item.failedChecks],
    errors: [...item.errors],
  };
}

/** Checks at the same position and of the same type that pass in the base and fail in the head. */
export function newlyFailedChecks(base: ItemDigest, head: ItemDigest): CheckRegression[] {
  const found: CheckRegression[] = [];
  head.checks.forEach((h, index) => {
    const b = base.checks[index];
    if (b === undefined || b.type !== h.type) return;
    if (checkVerdict(b) === true && checkVerdict(h) === false) found.push({ check: index + 1, type: h.type, detail: h.detail ?? '' });
  });
  return found;
}

/**
 * The head failed only through checks that could not be judged: no failed check, no request
 * error, a check not judged. Such an item is not a regression (nor is it a pass).
 */
function failedOnlyUnjudged(head: ItemDigest): boolean {
  return head.errors.length === 0 && head.checks.every((t) => checkVerdict(t) !== false) && head.checks.some((t) => t.notJudged > 0);
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
  // Keys digest the whole answers, so two long answers that differ past the cut are still "changed".
  const same = representativeAnswer(base).key === representativeAnswer(head).key;
  return {
    ...refOf(head, base),
    base: b,
    head: h,
    similarity: same ? 1 : round(textSimilarity(b.text, h.text), 4),
    diff: same ? [] : wordDiff(b.text, h.text),
    newly_failed_checks: newlyFailedChecks(base, head),
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
  const unjudged = new Set<string>();
  for (const [key, b] of base) {
    const h = head.get(key);
    if (h && failedOnlyUnjudged(h)) unjudged.add(key);
    if (h) matched.push(changeOf(b, h));
    else result.missing.push({ ...refOf(b), side: sideOf(b) });
  }
  for (const [key, h] of head) if (!base.has(key)) result.added.push({ ...refOf(h), side: sideOf(h) });
  matched.sort(compareItemOrder);
  for (const change of matched) {
    result.matched.push(change.item_id);
    const itemRegressed = change.base.pass && !change.head.pass && !unjudged.has(change.item_id);
    if (itemRegressed || change.newly_failed_checks.length > 0) result.regressions.push(change);
    if (!change.base.pass && change.head.pass) result.fixes.push(change);
    if (change.diff.length > 0) result.changed.push(change);
  }
  result.missing.sort(compareItemOrder);
  result.added.sort(compareItemOrder);
  return result;
}
