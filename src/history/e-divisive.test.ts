import { describe, expect, it } from 'vitest';
import { createRandom } from '../domain/random.js';
import { bestSplit, DEFAULT_E_DIVISIVE, eDivisive } from './e-divisive.js';
import { questionPermuter, ratesOf, type QuestionMatrix } from './question-permuter.js';

function noisy(n: number, mean: number, seed: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: n }, () => mean + (random() - 0.5) * 10);
}

/** Questions × 6 runs, `broken` of them failing from the fourth run on. */
function matrix(questions: number, broken: number): QuestionMatrix {
  const runs = 6;
  const passed = new Float64Array(questions * runs);
  const requests = new Float64Array(questions * runs).fill(1);
  for (let q = 0; q < questions; q++) for (let r = 0; r < runs; r++) passed[q * runs + r] = q < broken && r >= 3 ? 0 : 1;
  return { questions, runs, passed, requests };
}

describe('e-divisive means', () => {
  it('finds the best split of a step at its first point after the change', () => {
    expect(bestSplit([1, 1, 1, 5, 5, 5], 2)?.at).toBe(3);
    expect(bestSplit([1, 5], 2)).toBeNull();
  });

  it('finds a shift in a long noisy series, and nothing in a stationary one', () => {
    const shifted = [...noisy(40, 100, 1), ...noisy(40, 130, 2)];
    const points = eDivisive(shifted);
    expect(points.map((p) => p.index)).toEqual([40]);
    expect(points[0]!.pValue).toBeLessThanOrEqual(0.01);
    expect(eDivisive(noisy(80, 100, 3))).toEqual([]);
  });

  it('finds two shifts, each in its place', () => {
    const series = [...noisy(30, 100, 4), ...noisy(30, 150, 5), ...noisy(30, 100, 6)];
    expect(eDivisive(series).map((p) => p.index)).toEqual([30, 60]);
  });

  it('reports nothing on a flat series', () => {
    expect(eDivisive([1, 1, 1, 1, 1, 1])).toEqual([]);
  });

  it('cannot call six runs of plain values significant: 3 against 3 has 20 arrangements', () => {
    // The best p-value a permutation of six values can give is 2/20 = 0.1 for a clean step.
    expect(eDivisive([1, 1, 1, 0.8, 0.8, 0.8])).toEqual([]);
  });

  it('finds a pass-rate step of six runs when several questions broke at once (question-level permutation)', () => {
    const m = matrix(15, 3);
    const points = eDivisive(ratesOf(m), DEFAULT_E_DIVISIVE, questionPermuter(m));
    expect(points.map((p) => p.index)).toEqual([3]);
  });

  it('does not call one question flipping once a change of the pass rate', () => {
    const m = matrix(15, 1);
    expect(eDivisive(ratesOf(m), DEFAULT_E_DIVISIVE, questionPermuter(m))).toEqual([]);
  });

  it('raises few false alarms on stationary, heavy-tailed series (latency-like)', () => {
    const random = createRandom(99);
    let alarms = 0;
    for (let s = 0; s < 100; s++) {
      const series = Array.from({ length: 30 }, () => 500 * Math.exp(0.4 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())));
      if (eDivisive(series, { ...DEFAULT_E_DIVISIVE, seed: s + 1 }).length > 0) alarms++;
    }
    // At α = 0.01 about one series in a hundred; a count, never a time.
    expect(alarms).toBeLessThanOrEqual(4);
  });

  it('gives the same answer for the same seed', () => {
    const series = [...noisy(20, 100, 7), ...noisy(20, 112, 8)];
    expect(eDivisive(series)).toEqual(eDivisive(series));
  });
});
