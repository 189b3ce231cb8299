// The similarity measure: bounds, symmetry, and that it ranks answers the way a reader would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreAgainstReference, stem, textSimilarity, tokenize, vectorCosine } from './similarity.js';

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

// Issue 19 item 5: a parcel-locker knowledge base. Before, cosine alone gave the correct answer
// with two extra bullets 0.518 (fail) and the answer with the wrong number 0.592 (a hair under).
const PICKUP = 'You have 72 hours to collect a parcel after it is delivered to the locker.';
const PICKUP_PLUS_BULLETS = `${PICKUP}

- Open the compartment with the 6-digit pickup code from the SMS or the ParcelPoint app.
- If you cannot make it in time, you can extend the pickup window once by 24 hours in the app, free of charge.`;
const PICKUP_WRONG = 'You have 48 hours to collect a parcel after it is delivered to the locker.';

describe('scoreAgainstReference (the similar score)', () => {
  it('passes the reference plus correct bullets and fails the same sentence with a wrong number, at the default bar', () => {
    expect(textSimilarity(PICKUP_PLUS_BULLETS, PICKUP)).toBeLessThan(0.6);
    const plus = scoreAgainstReference(PICKUP_PLUS_BULLETS, PICKUP, 0.6);
    expect(plus.score).toBeGreaterThanOrEqual(0.6);
    expect(plus.facts.map((f) => f.status)).toEqual(['found']);
    const wrong = scoreAgainstReference(PICKUP_WRONG, PICKUP, 0.6);
    expect(wrong.score).toBeLessThan(0.6);
    expect(wrong.facts).toEqual([expect.objectContaining({ status: 'contradicted', instead: '48 hours' })]);
  });

  it('keeps a missing or contradicted fact below any positive bar, however close the wording', () => {
    for (const min of [0.1, 0.3, 0.6, 0.9]) {
      expect(scoreAgainstReference(PICKUP_WRONG, PICKUP, min).score).toBeLessThan(min);
      expect(scoreAgainstReference('You have some time to collect a parcel after it is delivered to the locker.', PICKUP, min).score).toBeLessThan(min);
    }
    const twoFacts = 'Parcels stay 72 hours in the locker; the extension costs €1.50.';
    const one = scoreAgainstReference('Parcels stay 72 hours in the locker; the extension costs €2.', twoFacts, 0.6);
    expect(one.score).toBeLessThan(0.6);
    expect(one.score).toBeGreaterThan(0);
  });

  it('accepts the same fact in other words: units converted, number words, a rewording', () => {
    expect(scoreAgainstReference('Parcels wait 3 days after they are delivered to the locker; collect yours in that time.', PICKUP, 0.6).facts[0]!.status).toBe('found');
    expect(scoreAgainstReference('You have seventy-two hours to collect a parcel after it is delivered to the locker.', PICKUP, 0.6).score).toBeGreaterThanOrEqual(0.6);
  });

  it('without facts in the reference, scores as text alone', () => {
    const r = scoreAgainstReference('Refunds can be requested by customers within thirty days.', 'customers can ask for a refund', 0.6);
    expect(r.facts).toEqual([]);
    expect(r.score).toBe(r.textScore);
  });

  it('cosine of embedding vectors, clamped to [0, 1]', () => {
    expect(vectorCosine([1, 0], [1, 0])).toBeCloseTo(1, 12);
    expect(vectorCosine([1, 0], [-1, 0])).toBe(0);
    expect(() => vectorCosine([1], [1, 2])).toThrow(/different lengths/);
  });
});
