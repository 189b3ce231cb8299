// promptfoo's `levenshtein` check (the answer within N edits of a text), and the one edit distance
// the project uses (the suite's did-you-mean hints read it too).
import type { CheckResult } from '../domain/sample.js';
import { excerpt } from './text.js';
import type { CheckHandler } from './types.js';

/** Levenshtein distance: the number of single-character edits between two texts. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitute = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitute));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** promptfoo's default threshold for `levenshtein` when none is written. */
export const DEFAULT_LEVENSHTEIN_MAX = 5;

/**
 * The answer as written (promptfoo compares the raw output, no folding), within `max` edits.
 * An answer far longer than the text cannot be within `max` edits: said without the quadratic table.
 */
function distanceWithin(answer: string, to: string, max: number): number {
  if (Math.abs(answer.length - to.length) > max) return Math.abs(answer.length - to.length);
  return editDistance(answer, to);
}

export const levenshteinCheck: CheckHandler<'levenshtein'> = (spec, subject): CheckResult => {
  const distance = distanceWithin(subject.text, spec.value.to, spec.value.max);
  const pass = distance <= spec.value.max;
  const detail = pass
    ? `${distance} edits from "${spec.value.to}" (≤ ${spec.value.max})`
    : `${distance} edits from "${spec.value.to}", more than ${spec.value.max}; answer starts ${excerpt(subject.text)}`;
  return { type: 'levenshtein', pass, detail };
};

export const notLevenshteinCheck: CheckHandler<'not-levenshtein'> = (spec, subject): CheckResult => {
  const distance = distanceWithin(subject.text, spec.value.to, spec.value.max);
  const pass = distance > spec.value.max;
  const detail = pass ? `more than ${spec.value.max} edits from "${spec.value.to}"` : `expected more than ${spec.value.max} edits from "${spec.value.to}"; ${distance}`;
  return { type: 'not-levenshtein', pass, detail };
};
