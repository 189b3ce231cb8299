// Mann-Whitney U against reference values (R's wilcox.test docs, SciPy), plus false-alarm and power properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { erfc, holmAdjust, mannWhitneyU } from './mann-whitney.js';
import { logNormalSample } from '../test-support/fixtures.js';

describe('mannWhitneyU', () => {
  it("matches R's wilcox.test example (Hollander & Wolfe, with ties): W = 58, p = 0.1329", () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const r = mannWhitneyU(x, y)!;
    expect(r.u).toBe(58);
    expect(r.pValue).toBeCloseTo(0.13291945818531892, 6);
  });

  it.each([
    // SciPy 1.17 mannwhitneyu(a, b, alternative='two-sided', method='asymptotic', use_continuity=True)
    ['small samples', [19, 22, 16, 29, 24], [20, 11, 17, 12], 17, 0.11134688653314041],
    ['ties across samples', [1, 2, 2, 3, 4, 5], [2, 3, 3, 6, 7, 8, 9], 9, 0.09667054340670089],
    ['complete separation', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 0, 0.00018267179110955002],
    ['all values equal', [5, 5, 5], [5, 5, 5, 5], 6, 1],
  ])('matches SciPy on %s', (_name, a, b, u, p) => {
    const r = mannWhitneyU(a, b)!;
    expect(r.u).toBe(u);
    expect(r.pValue).toBeCloseTo(p, 6);
  });

  it('gives z positive when the second sample is larger, and is symmetric in p', () => {
    const a = [1, 2, 3, 4, 5, 6];
    const b = [4, 5, 6, 7, 8, 9];
    expect(mannWhitneyU(a, b)!.z).toBeGreaterThan(0);
    expect(mannWhitneyU(b, a)!.z).toBeLessThan(0);
    expect(mannWhitneyU(b, a)!.pValue).toBeCloseTo(mannWhitneyU(a, b)!.pValue, 12);
  });

  it('is conservative at 5 vs 5 (exact p = 2/252 = 0.0079)', () => {
    const r = mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])!;
    expect(r.pValue).toBeGreaterThan(2 / 252);
    expect(r.pValue).toBeCloseTo(0.0122, 3);
  });

  it('returns null for an empty side', () => {
    expect(mannWhitneyU([], [1, 2])).toBeNull();
    expect(mannWhitneyU([1], [])).toBeNull();
  });

  it('raises no more false alarms than alpha allows on two samples of one distribution, across many seeds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 15, max: 60 }),
        fc.double({ min: 0.1, max: 0.8, noNaN: true }),
        fc.double({ min: 20, max: 2000, noNaN: true }),
        (seed, n, sigma, median) => {
          let alarms = 0;
          const pairs = 100;
          for (let i = 0; i < pairs; i++) {
            const a = logNormalSample(seed + 2 * i, n, median, sigma);
            const b = logNormalSample(seed + 2 * i + 1, n, median, sigma);
            if (mannWhitneyU(a, b)!.pValue < 0.01) alarms++;
          }
          // Expected about 1 in 100; 6 or more happens with probability < 0.1% (binomial).
          return alarms <= 5;
        },
      ),
      { numRuns: 25 },
    );
  });

  it('detects a clear shift of the median (×1.6 or more) every time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 40, max: 120 }),
        fc.double({ min: 0.1, max: 0.3, noNaN: true }),
        fc.double({ min: 1.6, max: 4, noNaN: true }),
        (seed, n, sigma, factor) => {
          const a = logNormalSample(seed, n, 300, sigma);
          const b = logNormalSample(seed + 1, n, 300 * factor, sigma);
          const r = mannWhitneyU(a, b)!;
          return r.z > 0 && r.pValue < 0.001;
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('erfc', () => {
  it.each([
    [0, 1],
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028513],
    [2, 0.004677734981047266],
    [3, 2.209049699858544e-5],
    [5, 1.5374597944280349e-12],
    [-1, 1.8427007929497148],
  ])('erfc(%d) within 1e-6 relative', (x, expected) => {
    expect(Math.abs(erfc(x) - expected) / expected).toBeLessThan(1e-6);
  });
});

describe('holmAdjust', () => {
  it('adjusts step-down and keeps the order monotone', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted.map((p) => Number(p!.toFixed(6)))).toEqual([0.03, 0.06, 0.06, 0.02]);
  });

  it('skips nulls and caps at 1', () => {
    expect(holmAdjust([null, 0.6, 0.5])).toEqual([null, 1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });
});
