// levenshtein: the edit distance, and the check and its negation around promptfoo's threshold.
import { describe, expect, it } from 'vitest';
import { editDistance, levenshteinCheck, notLevenshteinCheck } from './levenshtein.js';

const subject = (text: string) => ({ text, ttfc_ms: null, latency_ms: null, credits_used: null });

describe('levenshtein', () => {
  it('counts single-character edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('passes within max edits of the text, and not- passes beyond them', () => {
    expect(levenshteinCheck({ type: 'levenshtein', value: { to: 'Ahoy world', max: 5 } }, subject('Ahoy, world!'), {})).toMatchObject({ pass: true });
    expect(levenshteinCheck({ type: 'levenshtein', value: { to: 'Ahoy', max: 2 } }, subject('Hello there'), {})).toMatchObject({ pass: false });
    expect(notLevenshteinCheck({ type: 'not-levenshtein', value: { to: 'Ahoy', max: 2 } }, subject('Hello there'), {})).toMatchObject({ pass: true });
  });
});
