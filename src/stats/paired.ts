// Paired comparisons of two models over the questions both answered: exact McNemar, cluster bootstrap and sign-flip permutation.
import { createRandom } from '../domain/random.js';
import { clusteredMean, countClusters, medianInPlace, quantile } from './intervals.js';
import { studentTQuantile } from './student-t.js';

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
  /** Each question has one 0/1 answer per model and no shared threads: the exact McNemar test applies. */
  binarySingle?: boolean;
  seed?: number;
  resamples?: number;
  confidence?: number;
}

export interface PairedResult {
  /** statistic(b) − statistic(a): for a mean, the mean paired difference. */
  difference: number;
  ci95: [number, number];
  /** Two-sided, before any adjustment. */
  p_value: number;
  method: 'mcnemar-exact' | 'permutation';
  /** Clustered standard error of the mean paired difference (the mean statistic only). */
  se: number | null;
}

/** Questions fewer than this say nothing about a spread: no test. */
export const MIN_PAIRED_QUESTIONS = 3;

/** Exact two-sided McNemar test: of the discordant questions, how surprising is the split under 50/50? */
export function mcnemarExact(aOnly: number, bOnly: number): number {
  const n = aOnly + bOnly;
  if (n === 0) return 1;
  const k = Math.min(aOnly, bOnly);
  // P(X ≤ k) for X ~ Bin(n, 1/2), summed in log space so n in the thousands cannot overflow.
  let logTerm = -n * Math.LN2;
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

interface Grouped {
  /** Question indices by cluster: members[start[c] .. start[c+1]). */
  members: Int32Array;
  start: Int32Array;
  clusters: number;
}

function group(cluster: ArrayLike<number>): Grouped {
  const clusters = countClusters(cluster);
  const start = new Int32Array(clusters + 1);
  for (let i = 0; i < cluster.length; i++) start[cluster[i]! + 1]!++;
  for (let c = 0; c < clusters; c++) start[c + 1]! += start[c]!;
  const fill = start.slice(0, clusters);
  const members = new Int32Array(cluster.length);
  for (let i = 0; i < cluster.length; i++) members[fill[cluster[i]!]!++] = i;
  return { members, start, clusters };
}

/** Resample counts that keep one test under ~10⁷ element steps: medians sort, means do not. */
function resamplesFor(n: number, statistic: PairedStatistic, asked?: number): number {
  if (asked !== undefined) return asked;
  if (statistic === 'mean') return 2000;
  return Math.max(200, Math.min(1000, Math.floor(4e6 / Math.max(1, n))));
}

export function pairedTest(input: PairedInput, options: PairedOptions): PairedResult | null {
  const n = input.a.length;
  if (n < MIN_PAIRED_QUESTIONS) return null;
  const g = group(input.cluster);
  const random = createRandom(options.seed ?? 0x5eed);
  const resamples = resamplesFor(n, options.statistic, options.resamples);
  const confidence = options.confidence ?? 0.95;
  const stat = options.statistic === 'mean' ? meanStatistic(input, g) : medianStatistic(input, g);
  const difference = stat.observed;
  const tail = (1 - confidence) / 2;
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = input.b[i]! - input.a[i]!;
  const se = options.statistic === 'mean' ? clusteredMean({ values: d, cluster: input.cluster }).se : null;
  let ci95: [number, number];
  if (se !== null) {
    // A mean: Student's t on the clustered SE with C − 1 degrees of freedom (Miller 2024, eq. 4 with
    // the small-sample t): exact resampling-free, and wider than a percentile bootstrap at small n,
    // where the bootstrap is known to be too narrow.
    const half = studentTQuantile(1 - tail, g.clusters - 1) * se;
    ci95 = [difference - half, difference + half];
  } else {
    const boots = new Float64Array(resamples);
    const picks = new Int32Array(g.clusters);
    for (let r = 0; r < resamples; r++) {
      for (let c = 0; c < g.clusters; c++) picks[c] = Math.floor(random() * g.clusters);
      boots[r] = stat.resampled(picks);
    }
    boots.sort();
    ci95 = [quantile(boots, tail), quantile(boots, 1 - tail)];
  }
  if (options.binarySingle === true) {
    let aOnly = 0;
    let bOnly = 0;
    for (let i = 0; i < n; i++) {
      if (d[i]! < 0) aOnly++;
      else if (d[i]! > 0) bOnly++;
    }
    return { difference, ci95, p_value: mcnemarExact(aOnly, bOnly), method: 'mcnemar-exact', se };
  }
  // Under "no difference" a and b are exchangeable within each question's cluster: flip them at random.
  const flips = new Uint8Array(g.clusters);
  const observed = Math.abs(stat.testObserved) - 1e-12;
  let extreme = 0;
  for (let r = 0; r < resamples; r++) {
    for (let c = 0; c < g.clusters; c++) flips[c] = random() < 0.5 ? 1 : 0;
    if (Math.abs(stat.flipped(flips)) >= observed) extreme++;
  }
  return { difference, ci95, p_value: (extreme + 1) / (resamples + 1), method: 'permutation', se };
}

interface Statistic {
  observed: number;
  /** The permutation test's statistic on the data as observed (see `flipped`). */
  testObserved: number;
  /** The statistic over clusters picked with replacement (picks[k] = a cluster index). */
  resampled(picks: Int32Array): number;
  /** The test statistic with a and b swapped in the flagged clusters. */
  flipped(flips: Uint8Array): number;
}

/** Mean of b − a: per-cluster sums make each resample O(clusters). */
function meanStatistic(input: PairedInput, g: Grouped): Statistic {
  const diffSum = new Float64Array(g.clusters);
  const size = new Float64Array(g.clusters);
  let total = 0;
  for (let c = 0; c < g.clusters; c++) {
    for (let k = g.start[c]!; k < g.start[c + 1]!; k++) {
      const i = g.members[k]!;
      diffSum[c]! += input.b[i]! - input.a[i]!;
    }
    size[c] = g.start[c + 1]! - g.start[c]!;
    total += diffSum[c]!;
  }
  const n = input.a.length;
  return {
    observed: total / n,
    testObserved: total / n,
    resampled(picks) {
      let s = 0;
      let m = 0;
      for (let k = 0; k < picks.length; k++) {
        s += diffSum[picks[k]!]!;
        m += size[picks[k]!]!;
      }
      return m > 0 ? s / m : 0;
    },
    flipped(flips) {
      let s = 0;
      for (let c = 0; c < flips.length; c++) s += flips[c] ? -diffSum[c]! : diffSum[c]!;
      return s / n;
    },
  };
}

/**
 * median(b) − median(a): the "p50" of each model over the questions, the way summary.json reports
 * a p50, with its bootstrap interval. The test is a clustered sign test, Σ sign(b − a) with signs
 * flipped per cluster: the difference of two medians of flipped mixtures is a poor test statistic
 * (with ties it is often as large as observed), while the signs of the paired differences are
 * what a shift of the middle moves, and one 30-second outlier cannot move them more than any answer.
 */
function medianStatistic(input: PairedInput, g: Grouped): Statistic {
  const n = input.a.length;
  const signSum = new Float64Array(g.clusters);
  let signTotal = 0;
  for (let c = 0; c < g.clusters; c++) {
    for (let k = g.start[c]!; k < g.start[c + 1]!; k++) {
      const i = g.members[k]!;
      signSum[c]! += Math.sign(input.b[i]! - input.a[i]!);
    }
    signTotal += signSum[c]!;
  }
  const bufA = new Float64Array(n);
  const bufB = new Float64Array(n);
  const medians = (len: number): number => medianInPlace(bufB.subarray(0, len)) - medianInPlace(bufA.subarray(0, len));
  for (let i = 0; i < n; i++) {
    bufA[i] = input.a[i]!;
    bufB[i] = input.b[i]!;
  }
  const observed = medians(n);
  return {
    observed,
    testObserved: signTotal,
    resampled(picks) {
      let len = 0;
      for (let k = 0; k < picks.length; k++) {
        const c = picks[k]!;
        for (let j = g.start[c]!; j < g.start[c + 1]!; j++) {
          const i = g.members[j]!;
          bufA[len] = input.a[i]!;
          bufB[len++] = input.b[i]!;
        }
      }
      return medians(len);
    },
    flipped(flips) {
      let t = 0;
      for (let c = 0; c < flips.length; c++) t += flips[c] ? -signSum[c]! : signSum[c]!;
      return t;
    },
  };
}

export type PairVerdict = 'a_better' | 'b_better' | 'no_difference';

/** Significant after adjustment, then the sign says who is better; for latency and credits lower is better. */
export function pairVerdict(difference: number, pAdjusted: number | null, lowerIsBetter: boolean, alpha = 0.05): PairVerdict {
  if (pAdjusted === null || !(pAdjusted < alpha) || difference === 0) return 'no_difference';
  const bHigher = difference > 0;
  return bHigher !== lowerIsBetter ? 'b_better' : 'a_better';
}
