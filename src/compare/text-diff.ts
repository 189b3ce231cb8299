// Word-level diff of two answers (the `diff` package), bounded so huge answers cannot stall a comparison.
import { diffWordsWithSpace } from 'diff';
import type { DiffPart } from './types.js';

/**
 * Myers' diff is O(N·D): two long answers that share little would cost seconds. Beyond this many
 * edits the diff gives up (deterministically, unlike a time limit) and shows a whole replacement.
 */
export const MAX_EDIT_LENGTH = 2000;
/** Answers longer than this are diffed on their first part only; the rest is shown as is. */
export const MAX_DIFF_CHARS = 20_000;

/** Whitespace-only differences (a trailing newline, doubled spaces) are not a changed answer. */
export function sameAnswer(a: string, b: string): boolean {
  return a === b || normalizeSpace(a) === normalizeSpace(b);
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * diffWordsWithSpace rather than diffWords: diffWords ignores whitespace and reports kept runs with
 * the head's spacing, so the base column could not show the base answer verbatim (a newline in a
 * markdown answer is content). With whitespace as tokens both sides rebuild exactly.
 */
export function wordDiff(base: string, head: string): DiffPart[] {
  if (base === head) return base === '' ? [] : [{ op: '=', text: base }];
  const a = base.slice(0, MAX_DIFF_CHARS);
  const b = head.slice(0, MAX_DIFF_CHARS);
  const changes = diffWordsWithSpace(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  const parts: DiffPart[] = changes
    ? changes.map((c) => ({ op: c.added ? '+' : c.removed ? '-' : '=', text: c.value }))
    : [{ op: '-', text: a }, { op: '+', text: b }];
  if (base.length > a.length) parts.push({ op: '-', text: base.slice(a.length) });
  if (head.length > b.length) parts.push({ op: '+', text: head.slice(b.length) });
  return mergeAdjacent(parts.filter((p) => p.text !== ''));
}

function mergeAdjacent(parts: DiffPart[]): DiffPart[] {
  const merged: DiffPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (last && last.op === part.op) last.text += part.text;
    else merged.push({ ...part });
  }
  return merged;
}

/** The two sides of a diff: the base shows kept + removed runs, the head kept + added ones. */
export function diffSides(parts: readonly DiffPart[]): { base: DiffPart[]; head: DiffPart[] } {
  return { base: parts.filter((p) => p.op !== '+'), head: parts.filter((p) => p.op !== '-') };
}
