import { describe, expect, it } from 'vitest';
import { createRandom } from '../domain/random.js';
import {
  clusterIndex, clusteredMean, detectableDifference, holmAdjust, mcnemarScoreP, pairedTest, pairVerdict, passHatK,
  passRateInterval, questionsNeeded, repeatsNeeded, stabilityOf,
} from './index.js';

describe('mcnemarScoreP', () => {
  it('is the two-sided normal tail of (b − c)/√(b + c)', () => {
    expect(mcnemarScoreP(1, 9)).toBeCloseTo(0.011412, 5);
    expect(mcnemarScoreP(0, 0)).toBe(1);
    expect(mcnemarScoreP(5, 5)).toBe(1);
  });
});

describe('clusteredMean', () => {
  it('equals the ordinary SE (with C/(C−1)) when every question is its own cluster', () => {
    const values = [1, 0, 1, 1, 0, 1];
    const est = clusteredMean({ values, cluster: [0, 1, 2, 3, 4, 5] });
    const mean = 4 / 6;
    const ss = values.reduce((a, v) => a + (v - mean) ** 2, 0);
    expect(est.se).toBeCloseTo(Math.sqrt((6 / 5) * ss) / 6, 12);
  });
  it('is wider when correlated questions share a thread', () => {
    const values = [1, 1, 1, 0, 0, 0, 1, 1, 0, 0];
    const apart = clusteredMean({ values, cluster: values.map((_, i) => i) });
    const threads = clusteredMean({ values, cluster: clusterIndex(['t1', 't1', 't1', 't2', 't2', 't2', 't3', 't3', 't4', 't4']) });
    expect(threads.se!).toBeGreaterThan(apart.se!);
  });
});

describe('passRateInterval', () => {
  it('is Wilson on independent 0/1 questions', () => {
    const values = [...Array(8).fill(1), 0, 0];
    const [lo, hi] = passRateInterval({ values, cluster: values.map((_, i) => i) });
    // n_eff = p(1−p)/SE² = n − 1 with the CR1 factor: close to Wilson(8, 10).
    expect(lo).toBeGreaterThan(0.44);
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.93);
  });
});

describe('pairedTest', () => {
  const random = createRandom(7);
  const n = 200;
  const a = Array.from({ length: n }, () => (random() < 0.6 ? 1 : 0));
  const b = a.map((v) => (v === 1 || random() < 0.5 ? 1 : 0));
  const cluster = a.map((_, i) => i);
  it('finds a 20-point improvement, with an interval around it, the same every time', () => {
    const r = pairedTest({ a, b, cluster }, { statistic: 'mean', binarySingle: true })!;
    expect(r.method).toBe('tango-score');
    expect(r.difference).toBeGreaterThan(0.1);
    expect(r.ci95![0]).toBeGreaterThan(0);
    expect(r.p_value).toBeLessThan(0.001);
    expect(r.significant).toBe(true);
    expect(pairedTest({ a, b, cluster }, { statistic: 'mean', binarySingle: true })).toEqual(r);
    expect(pairVerdict(r.difference, r.significant, false)).toBe('b_better');
    expect(pairVerdict(r.difference, r.significant, true)).toBe('a_better');
  });
  it('calls a model against itself no different', () => {
    const r = pairedTest({ a, b: a, cluster }, { statistic: 'mean' })!;
    expect(r.difference).toBe(0);
    expect(r.p_value).toBe(1);
    expect(pairVerdict(r.difference, r.significant, false)).toBe('no_difference');
  });
  it('compares medians of per-question latencies by the clustered sign test', () => {
    const la = a.map((_, i) => 1000 + (i % 17) * 10);
    const lb = la.map((v) => v + 200);
    const r = pairedTest({ a: la, b: lb, cluster }, { statistic: 'median' })!;
    expect(r.difference).toBe(200);
    expect(r.p_value).toBeLessThan(0.01);
  });
  it('needs three questions', () => {
    expect(pairedTest({ a: [1, 0], b: [0, 1], cluster: [0, 1] }, { statistic: 'mean' })).toBeNull();
  });
});

describe('power', () => {
  it('detectable difference is 2.8 standard errors; questions scale with its square', () => {
    expect(detectableDifference(0.01)).toBeCloseTo(0.028, 3);
    expect(questionsNeeded(100, 0.2, 0.1)).toBe(400);
    expect(questionsNeeded(100, 0.05, 0.1)).toBe(100);
  });
  it('repeats help only against within-question noise', () => {
    // between 1/8, allowed 1/4 of the total: (7/8 · 2) / (1/4 − 1/8) = 14 repeats.
    expect(repeatsNeeded({ total: 1, within: 0.875, repeats: 2 }, 0.2, 0.1)).toBe(14);
    // between 1/4 already fills what a 0.1 difference allows: no number of repeats is enough.
    expect(repeatsNeeded({ total: 1, within: 0.75, repeats: 2 }, 0.2, 0.1)).toBeNull();
    expect(repeatsNeeded({ total: 0.04, within: 0.03, repeats: 1 }, 0.2, 0.1)).toBeNull();
  });
});

describe('holm, stability, pass^k', () => {
  it('adjusts step-down', () => {
    expect(holmAdjust([0.01, 0.04, null, 0.03])).toEqual([0.03, 0.06, null, 0.06]);
  });
  it('classifies repeats', () => {
    expect(stabilityOf(3, 3)).toBe('stable_pass');
    expect(stabilityOf(0, 3)).toBe('stable_fail');
    expect(stabilityOf(2, 3)).toBe('flaky');
    expect(stabilityOf(1, 1)).toBeNull();
  });
  it('pass^k is C(c,k)/C(n,k)', () => {
    expect(passHatK(2, 3, 2)).toBeCloseTo(1 / 3, 12);
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(1, 3, 2)).toBe(0);
  });
});
