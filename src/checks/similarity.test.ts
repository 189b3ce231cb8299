// The similarity measure: bounds, symmetry, and that it ranks answers the way a reader would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stem, textSimilarity, tokenize } from './similarity.js';

const GOLDEN = 'Customers can ask for a refund within 30 days of purchase.';

describe('textSimilarity', () => {
  it('is 1 for the same text, 0 for texts sharing no terms, symmetric and in [0, 1]', () => {
    expect(textSimilarity(GOLDEN, GOLDEN)).toBeCloseTo(1, 10);
    expect(textSimilarity(GOLDEN, 'Our office is in Berlin.')).toBe(0);
    expect(textSimilarity('', '')).toBe(1);
    expect(textSimilarity('', GOLDEN)).toBe(0);
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const score = textSimilarity(a, b);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(textSimilarity(b, a)).toBeCloseTo(score, 12);
      }),
      { numRuns: 200 },
    );
  });

  it('ignores case, accents, punctuation and inflection', () => {
    expect(textSimilarity('REFUNDS, within 30 DAYS!', 'refund within 30 day')).toBeCloseTo(1, 10);
    expect(textSimilarity('café résumé', 'cafe resume')).toBeCloseTo(1, 10);
  });

  it('ranks a light rewording above a different answer, and both above an unrelated one', () => {
    const reworded = textSimilarity('Refunds can be requested by customers within 30 days of their purchase.', GOLDEN);
    const wrong = textSimilarity('Customers can ask for a refund within 14 days of delivery.', GOLDEN);
    const unrelated = textSimilarity('The Pro plan costs 20 euros a month.', GOLDEN);
    expect(reworded).toBeGreaterThan(0.6);
    expect(reworded).toBeGreaterThan(wrong);
    expect(wrong).toBeGreaterThan(unrelated);
  });

  it('rewards word order through bigrams', () => {
    const ordered = textSimilarity('refund within thirty days', 'refund within thirty days');
    const shuffled = textSimilarity('days thirty within refund', 'refund within thirty days');
    expect(shuffled).toBeLessThan(ordered);
    expect(shuffled).toBeGreaterThan(0.4);
  });
});

describe('tokenize and stem', () => {
  it('drops stop words but keeps negations and numbers', () => {
    expect(tokenize('It is not possible after the 30 days, sorry.')).toEqual(['not', 'possible', 'after', '30', 'day', 'sorry']);
    expect(tokenize('Price is 0.05 credits')).toEqual(['price', '0.05', 'credit']);
  });

  it('strips common suffixes conservatively', () => {
    expect(['refunds', 'refunded', 'refunding', 'policies', 'stopped', 'quickly', 'process', 'bus', 'asked'].map(stem)).toEqual([
      'refund',
      'refund',
      'refund',
      'policy',
      'stop',
      'quick',
      'process',
      'bus',
      'ask',
    ]);
  });
});

describe('the default minimum of 0.6', () => {
  it('passes rewordings that keep the facts and fails a wrong number', () => {
    const rewordings = [
      'Refunds can be requested by customers within 30 days of their purchase.',
      'You have 30 days from purchase to request a refund.',
      'Yes — customers may request a refund within 30 days after buying. Contact support to start.',
      'A refund can be requested up to 30 days after purchase by any customer.',
    ];
    for (const answer of rewordings) expect(textSimilarity(answer, GOLDEN)).toBeGreaterThanOrEqual(0.6);
    expect(textSimilarity('Customers can ask for a refund within 14 days of delivery.', GOLDEN)).toBeLessThan(0.6);
    expect(textSimilarity('30', GOLDEN)).toBeLessThan(0.6);
  });
});
