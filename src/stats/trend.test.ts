import { describe, expect, it } from 'vitest';
import { decreasingTrendP } from './trend.js';

const levels = (...rows: Array<[number, number]>) => rows.map(([passed, judged], score) => ({ score, passed, judged }));

describe('Cochran–Armitage trend test (one-sided: the pass rate falls with the load)', () => {
  it('calls a question that passes at low load and fails at high load', () => {
    expect(decreasingTrendP(levels([4, 4], [2, 20]))!).toBeLessThan(0.01);
    expect(decreasingTrendP(levels([10, 10], [7, 10], [1, 10]))!).toBeLessThan(0.001);
  });

  it('does not call a flat or rising pass rate, nor one from too few answers', () => {
    expect(decreasingTrendP(levels([5, 10], [5, 10]))!).toBeGreaterThan(0.3);
    expect(decreasingTrendP(levels([1, 10], [9, 10]))!).toBeGreaterThan(0.99);
    // 1/1 then 0/1: a p of 0.5 at best, nothing to call.
    expect(decreasingTrendP(levels([1, 1], [0, 1]))).toBeCloseTo(0.5, 10);
    expect(decreasingTrendP(levels([3, 3], [3, 3]))).toBe(1);
    expect(decreasingTrendP(levels([3, 3]))).toBeNull();
    expect(decreasingTrendP(levels([3, 3], [0, 0]))).toBeNull();
  });

  it('the exact test agrees with Fisher\'s one-sided exact test on two levels', () => {
    // 2×2 table [[4, 0], [2, 18]]: P(X_low ≥ 4 | 6 passes of 24) = C(4,4)C(20,2)/C(24,6).
    const fisher = (1 * 190) / 134_596;
    expect(decreasingTrendP(levels([4, 4], [2, 20]))).toBeCloseTo(fisher, 10);
  });

  it('past the exact limit, the normal approximation gives the same call', () => {
    const p = decreasingTrendP(levels([90, 100], [80, 100], [60, 100]))!;
    expect(p).toBeLessThan(1e-4);
    expect(decreasingTrendP(levels([80, 100], [80, 100], [80, 100]))!).toBeGreaterThan(0.4);
  });
});
