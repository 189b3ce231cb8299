// Exact nearest-rank percentiles (compare's per-item statistics): the definition, and ranks floating point would miss.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestRank } from './percentile.js';

describe('nearestRank', () => {
  it('matches the definition: the smallest value with at least p% of values at or below it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 60 }), fc.double({ min: 0.01, max: 100, noNaN: true }), (values, p) => {
        const sorted = [...values].sort((a, b) => a - b);
        const result = nearestRank(sorted, p);
        const atOrBelow = sorted.filter((v) => v <= result).length;
        const below = sorted.filter((v) => v < result).length;
        expect(atOrBelow / sorted.length).toBeGreaterThanOrEqual(p / 100 - 1e-9);
        expect(below / sorted.length).toBeLessThan(p / 100 + 1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('gives exact ranks where floating point would slip', () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect(nearestRank(thousand, 99.9)).toBe(999);
    expect(nearestRank(Array.from({ length: 20 }, (_, i) => i + 1), 95)).toBe(19);
    expect(nearestRank([1, 2], 50)).toBe(1);
    expect(nearestRank([5], 0.001)).toBe(5);
  });
});
