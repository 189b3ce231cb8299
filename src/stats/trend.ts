// The Cochran–Armitage test for a trend in proportions: does a question's pass rate fall as the
// offered load rises? Exact (conditional) on small tables, its normal approximation on large ones.
import { erfc } from './normal.js';

/** One level of load: its rank among the levels (0 = the lowest offered load) and the answers judged there. */
export interface TrendLevel {
  score: number;
  passed: number;
  judged: number;
}

/** Past this many answers the exact distribution costs more than it adds: the normal approximation is used. */
export const EXACT_TREND_LIMIT = 200;

/**
 * One-sided p that the pass rate does not fall with the score (H0: equal rates; H1: falling), the
 * statistic T = Σ score·passed. Conditional on the total passes, T's exact distribution is a sum of
 * hypergeometric draws (a small dynamic programme over the levels, integer scores); past
 * EXACT_TREND_LIMIT answers, T's normal approximation. Null with fewer than two levels judged.
 */
export function decreasingTrendP(levels: readonly TrendLevel[]): number | null {
  const used = levels.filter((l) => l.judged > 0);
  if (used.length < 2) return null;
  const n = used.reduce((a, l) => a + l.judged, 0);
  const x = used.reduce((a, l) => a + l.passed, 0);
  // Every answer passed, or none did: nothing fell.
  if (x === 0 || x === n) return 1;
  const observed = used.reduce((a, l) => a + l.score * l.passed, 0);
  const integral = used.every((l) => Number.isInteger(l.score) && l.score >= 0);
  return n <= EXACT_TREND_LIMIT && integral ? exactLowerTail(used, x, observed) : normalLowerTail(used, n, x, observed);
}

/** P(T ≤ observed | total passes x): the passes spread over the levels as draws without replacement. */
function exactLowerTail(levels: readonly TrendLevel[], x: number, observed: number): number {
  // ways[j] maps a score sum to the number of ways (Π C(n_i, x_i)) to place j passes so far.
  let ways: Map<number, number>[] = [new Map([[0, 1]])];
  let placed = 0;
  for (const level of levels) {
    const next: Map<number, number>[] = [];
    for (let j = 0; j <= Math.min(x, placed + level.judged); j++) next.push(new Map());
    ways.forEach((sums, j) => {
      for (let k = 0; k <= level.judged && j + k <= x; k++) {
        const c = choose(level.judged, k);
        const target = next[j + k]!;
        for (const [sum, w] of sums) {
          const s = sum + k * level.score;
          target.set(s, (target.get(s) ?? 0) + w * c);
        }
      }
    });
    ways = next;
    placed += level.judged;
  }
  let below = 0;
  let all = 0;
  for (const [sum, w] of ways[x]!) {
    all += w;
    if (sum <= observed) below += w;
  }
  return Math.min(1, below / all);
}

function normalLowerTail(levels: readonly TrendLevel[], n: number, x: number, observed: number): number {
  const p = x / n;
  const sumNs = levels.reduce((a, l) => a + l.judged * l.score, 0);
  const sumNs2 = levels.reduce((a, l) => a + l.judged * l.score * l.score, 0);
  const variance = p * (1 - p) * (sumNs2 - (sumNs * sumNs) / n);
  if (!(variance > 0)) return 1;
  const z = (observed - p * sumNs) / Math.sqrt(variance);
  // Φ(z): small when the passes sit at the low scores.
  return Math.min(1, 0.5 * erfc(-z / Math.SQRT2));
}

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}
