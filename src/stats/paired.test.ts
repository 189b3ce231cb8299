import { describe, expect, it } from 'vitest';
import { createRandom } from '../domain/random.js';
import { pairedTest } from './paired.js';
import { clustersNeeded, signTestInterval, signTestP, smallestSignTestP } from './sign-test.js';
import { tangoInterval, tangoScore } from './tango.js';
import { normalQuantile } from './wilson.js';

const ids = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('one method behind each interval and its call (issue 33, item 1)', () => {
  it('never prints an interval that excludes zero beside "no difference", nor a call beside one that holds zero', () => {
    const random = createRandom(11);
    for (let trial = 0; trial < 300; trial++) {
      const n = 3 + Math.floor(random() * 20);
      const threadOf = ids(n).map((i) => Math.floor(i / (1 + Math.floor(random() * 3))));
      const cluster = threadOf.map((t) => t - threadOf[0]!);
      const dense = Array.from(new Set(cluster));
      const c = cluster.map((k) => dense.indexOf(k));
      const shift = (random() - 0.5) * 600;
      const a = ids(n).map(() => 500 + random() * 400);
      const b = a.map((v) => v + shift + (random() - 0.5) * 300);
      const family = 1 + Math.floor(random() * 3);
      for (const statistic of ['mean', 'median'] as const) {
        const r = pairedTest({ a, b, cluster: c }, { statistic, family });
        if (!r) continue;
        const excludesZero = r.ci95 !== null && (r.ci95[0] > 0 || r.ci95[1] < 0);
        expect(r.significant).toBe(excludesZero);
        expect(r.p_adjusted < 0.05).toBe(excludesZero);
      }
    }
  });
  it('says when 5 clusters can never reach a call: the smallest p is 2/2^5, 0.19 across three pairs', () => {
    // The demo's shape: 5 threads, b faster on every question.
    const cluster = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4];
    const a = cluster.map((_, i) => 900 + i * 10);
    const b = a.map((v) => v - 400);
    const r = pairedTest({ a, b, cluster }, { statistic: 'median', family: 3 })!;
    expect(r.significant).toBe(false);
    expect(r.ci95).toBeNull();
    expect(r.unreachable).toEqual({ smallest_p: 0.1875, clusters_needed: 7 });
    expect(smallestSignTestP(5)).toBe(0.0625);
    expect(clustersNeeded(0.05, 1)).toBe(6);
  });
  it('calls a difference on every one of 15 questions with one pair (smallest p 2/2^15)', () => {
    const a = ids(15).map((i) => 900 + i * 10);
    const b = a.map((v, i) => v - 300 - i);
    const r = pairedTest({ a, b, cluster: ids(15) }, { statistic: 'median' })!;
    expect(r.significant).toBe(true);
    expect(r.ci95![1]).toBeLessThan(0);
  });
});

describe('clustered sign test', () => {
  it('is the binomial sign test with one question per cluster, and its inversion the order-statistic interval', () => {
    const d = ids(15).map((i) => i * 10 - 30);
    const input = { differences: d, cluster: ids(15), clusters: 15 };
    // 3 below zero, 1 at zero, 11 above: P(|S| ≥ 8) over 14 signs = 2·P(Bin(14, ½) ≤ 3).
    expect(signTestP(input, 0)).toBeCloseTo((2 * (1 + 14 + 91 + 364)) / 16384, 10);
    // n = 15 at 95%: [d(4), d(12)].
    expect(signTestInterval(input, 0.05)).toEqual([d[3], d[11]]);
  });
});

describe('Tango score interval (issue 33, item 2)', () => {
  it('gives 15 questions both models pass about ±20 points, never [0, 0]', () => {
    const [lo, hi] = tangoInterval(0, 0, 15);
    const z2 = normalQuantile(0.975) ** 2;
    expect(hi).toBeCloseTo(z2 / (15 + z2), 6);
    expect(lo).toBeCloseTo(-hi, 6);
    const r = pairedTest({ a: ids(15).map(() => 1), b: ids(15).map(() => 1), cluster: ids(15) }, { statistic: 'mean', binarySingle: true, bounds: [-1, 1] })!;
    expect(r.ci95![1]).toBeGreaterThan(0.2);
  });
  it('holds 20 points too when repeats all passed (no spread for a t interval)', () => {
    const r = pairedTest({ a: ids(15).map(() => 1), b: ids(15).map(() => 1), cluster: ids(15) }, { statistic: 'mean', proportion: true, bounds: [-1, 1] })!;
    expect(r.ci95![1]).toBeGreaterThan(0.2);
    expect(r.method).toBe('tango-score');
  });
  it('inverts the score test: the score at each limit is ∓z', () => {
    const [lo, hi] = tangoInterval(2, 9, 40);
    const z = normalQuantile(0.975);
    expect(tangoScore(2, 9, 40, lo)).toBeCloseTo(z, 6);
    expect(tangoScore(2, 9, 40, hi)).toBeCloseTo(-z, 6);
  });
});
