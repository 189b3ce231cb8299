// Mann-Whitney U test (two-sided; normal approximation with tie and continuity corrections) and Holm's adjustment.
import { erfc } from '../stats/normal.js';

/**
 * Why this test for latency: it compares ranks, not means, so a single 30-second outlier or the
 * long right tail every latency distribution has cannot move it much; it assumes no distribution
 * (latencies are log-normal-ish, never normal); and it asks the question the tolerance then sizes:
 * does one run tend to be slower than the other (a shift of the middle, i.e. the median)?
 *
 * Why the normal approximation: a run gives tens to thousands of answers per model, where the
 * approximation is within a few percent of the exact distribution; the exact one costs O(n1·n2·N)
 * and knows no ties, while services that round times to the millisecond produce ties. With the
 * continuity correction the approximation errs on the conservative side for small samples (at
 * 5 vs 5 it gives p = 0.012 where the exact p is 0.008), so it does not raise false alarms there.
 */
export interface MannWhitneyResult {
  n1: number;
  n2: number;
  /** U of the first sample: pairs (x from a, y from b) with x > y, ties counting one half (SciPy's convention). */
  u: number;
  /** Signed: positive when the second sample (b) tends to be larger. */
  z: number;
  /** Two-sided. */
  pValue: number;
}

export function mannWhitneyU(a: readonly number[], b: readonly number[]): MannWhitneyResult | null {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return null;
  const { rankSumA, tieTerm } = rankSum(a, b);
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (!(variance > 0)) return { n1, n2, u, z: 0, pValue: 1 };
  // b's U is n1·n2 − u: b larger ⇔ u below the mean.
  const distance = Math.max(0, Math.abs(u - mean) - 0.5);
  const zAbs = distance / Math.sqrt(variance);
  return { n1, n2, u, z: u < mean ? zAbs : -zAbs, pValue: Math.min(1, erfc(zAbs / Math.SQRT2)) };
}

/** Mid-ranks of the pooled samples: the rank sum of `a` and Σ(t³ − t) over tie groups. */
function rankSum(a: readonly number[], b: readonly number[]): { rankSumA: number; tieTerm: number } {
  const pooled = [...a.map((v) => ({ v, first: true })), ...b.map((v) => ({ v, first: false }))];
  pooled.sort((x, y) => x.v - y.v);
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < pooled.length; ) {
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1]!.v === pooled[i]!.v) j++;
    const t = j - i + 1;
    const midRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (pooled[k]!.first) rankSumA += midRank;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  return { rankSumA, tieTerm };
}

/** erfc lives with the other statistics (stats/normal.ts); compare's callers know it here. */
export { erfc } from '../stats/normal.js';

/** Holm's adjustment lives with the other statistics (stats/holm.ts); compare's callers know it here. */
export { holmAdjust } from '../stats/holm.js';
