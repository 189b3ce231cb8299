// Paired comparisons of two models over the questions both answered: each interval and its call from one method.
import { clusteredMean, countClusters } from './intervals.js';
import { clustersNeeded, medianDifference, signTestInterval, signTestP, smallestSignTestP } from './sign-test.js';
import { studentTCdf, studentTQuantile } from './student-t.js';
import { mcnemarScoreP, tangoInterval } from './tango.js';

/**
 * Why paired: most of the spread between two models' scores comes from which questions are hard,
 * and both models face the same questions; differencing per question removes that spread (Miller
 * 2024, §4), so a 200-question suite detects a difference that unpaired rates would need far more
 * questions for. Why resample clusters, not answers: the question (or its thread) is the unit.
 */
export interface PairedInput {
  /** Per question: model a's value (its repeats averaged), model b's, and the question's cluster. */
  a: ArrayLike<number>;
  b: ArrayLike<number>;
  cluster: ArrayLike<number>;
}

export type PairedStatistic = 'mean' | 'median';

export interface PairedOptions {
  statistic: PairedStatistic;
  /** Each question has one 0/1 answer per model and no shared threads: Tango's interval and McNemar's score test apply. */
  binarySingle?: boolean;
  /** The values are proportions in [0, 1] (a pass rate, repeats averaged): a difference with no spread falls back to Tango's interval. */
  proportion?: boolean;
  /** Tests in the family the call is controlled over (Bonferroni): the interval is at 1 − alpha/family. */
  family?: number;
  alpha?: number;
  /** Where the difference can lie at all (a pass-rate difference: [−1, 1]): the interval is clipped to it. */
  bounds?: [number, number];
}

export type PairedMethod = 'tango-score' | 'cluster-t' | 'sign-test';

export interface PairedResult {
  /** For a mean, the mean paired difference b − a; for a median, the median of the paired differences. */
  difference: number;
  /** At 1 − alpha/family (95% with one test): excludes zero exactly when `significant`; null when no call is reachable. */
  ci95: [number, number] | null;
  /** Two-sided, before any adjustment. */
  p_value: number;
  /** × family (Bonferroni), at most 1: below alpha exactly when the interval excludes zero. */
  p_adjusted: number;
  significant: boolean;
  method: PairedMethod;
  /** Clustered standard error of the mean paired difference (the mean statistic only). */
  se: number | null;
  /** The smallest adjusted p any data could reach with these clusters, when it is not below alpha: no call can be made. */
  unreachable: { smallest_p: number; clusters_needed: number } | null;
}

/** Questions fewer than this say nothing about a spread: no test. */
export const MIN_PAIRED_QUESTIONS = 3;

/**
 * One method behind each interval and its call: the interval is the test inverted at the family's
 * level (Bonferroni's 1 − α/m: with two models, m = 1 and it is the plain 95% interval), so an
 * interval that excludes zero is always a call, and a call always has an interval that excludes zero.
 * Means: Student's t on the clustered SE with C − 1 degrees of freedom (Miller 2024, eq. 4).
 * Proportions with one answer each: Tango's score interval and McNemar's score test. Medians: the
 * clustered sign test and its inversion, which says when too few clusters can never reach a call.
 */
export function pairedTest(input: PairedInput, options: PairedOptions): PairedResult | null {
  const n = input.a.length;
  if (n < MIN_PAIRED_QUESTIONS) return null;
  const clusters = countClusters(input.cluster);
  if (clusters < 2) return null;
  const family = Math.max(1, options.family ?? 1);
  const alpha = options.alpha ?? 0.05;
  const gamma = alpha / family;
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = input.b[i]! - input.a[i]!;
  const raw = options.statistic === 'median'
    ? signTest(d, input.cluster, clusters, gamma, family, alpha)
    : meanTest(d, input.cluster, options, gamma);
  const [lo, hi] = options.bounds ?? [-Infinity, Infinity];
  const ci95 = raw.ci === null ? null : [Math.max(lo, raw.ci[0]), Math.min(hi, raw.ci[1])] as [number, number];
  const significant = ci95 !== null && (ci95[0] > 0 || ci95[1] < 0);
  return {
    difference: raw.difference, ci95, p_value: raw.p, p_adjusted: Math.min(1, raw.p * family), significant,
    method: raw.method, se: raw.se, unreachable: raw.unreachable,
  };
}

interface RawTest {
  difference: number;
  ci: [number, number] | null;
  p: number;
  method: PairedMethod;
  se: number | null;
  unreachable: PairedResult['unreachable'];
}

function meanTest(d: Float64Array, cluster: ArrayLike<number>, options: PairedOptions, gamma: number): RawTest {
  const est = clusteredMean({ values: d, cluster });
  const se = est.se ?? 0;
  if (options.binarySingle === true || (options.proportion === true && !(se > 0))) {
    // No spread to scale (every question alike) or single 0/1 answers: the score interval of the discordant counts.
    let aOnly = 0;
    let bOnly = 0;
    for (const v of d) {
      if (v < 0) aOnly++;
      else if (v > 0) bOnly++;
    }
    const ci = tangoInterval(aOnly, bOnly, d.length, 1 - gamma);
    return { difference: est.mean, ci, p: mcnemarScoreP(aOnly, bOnly), method: 'tango-score', se: est.se, unreachable: null };
  }
  const df = est.clusters - 1;
  if (!(se > 0)) {
    const ci: [number, number] = [est.mean, est.mean];
    return { difference: est.mean, ci, p: est.mean === 0 ? 1 : 0, method: 'cluster-t', se, unreachable: null };
  }
  const half = studentTQuantile(1 - gamma / 2, df) * se;
  const p = Math.min(1, 2 * (1 - studentTCdf(Math.abs(est.mean) / se, df)));
  return { difference: est.mean, ci: [est.mean - half, est.mean + half], p, method: 'cluster-t', se, unreachable: null };
}

function signTest(d: Float64Array, cluster: ArrayLike<number>, clusters: number, gamma: number, family: number, alpha: number): RawTest {
  const input = { differences: d, cluster, clusters };
  const difference = medianDifference(d);
  const p = signTestP(input, 0);
  const smallest = Math.min(1, smallestSignTestP(clusters) * family);
  if (!(smallest < alpha)) {
    return { difference, ci: null, p, method: 'sign-test', se: null, unreachable: { smallest_p: smallest, clusters_needed: clustersNeeded(alpha, family) } };
  }
  let ci = signTestInterval(input, gamma);
  // Where the p-value is not monotone across clusters of unequal size, the call at zero decides: the interval keeps zero when the test does.
  if (ci !== null && p >= gamma) ci = [Math.min(ci[0], 0), Math.max(ci[1], 0)];
  return { difference, ci, p, method: 'sign-test', se: null, unreachable: null };
}

export type PairVerdict = 'a_better' | 'b_better' | 'no_difference';

/** A call only when the interval excludes zero (`significant`), then the sign says who is better; for latency and credits lower is better. */
export function pairVerdict(difference: number, significant: boolean, lowerIsBetter: boolean): PairVerdict {
  if (!significant || difference === 0) return 'no_difference';
  const bHigher = difference > 0;
  return bHigher !== lowerIsBetter ? 'b_better' : 'a_better';
}
