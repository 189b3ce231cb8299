// Change points of a series by e-divisive means (Matteson & James 2014, "A nonparametric approach for
// multiple change point analysis of multivariate data", JASA; the method Hunter, arXiv 2301.03034,
// runs over performance history), with a seeded permutation test deciding each split.
import { createRandom } from '../domain/random.js';

export interface EDivisiveOptions {
  /** A split is kept when its permutation p-value is at most this. */
  significance: number;
  /** Permutations per test (a p-value's resolution is 1 / (permutations + 1)). */
  permutations: number;
  /** The fewest points a segment may have on either side of a split. */
  minSegment: number;
  seed: number;
}

export const DEFAULT_E_DIVISIVE: EDivisiveOptions = { significance: 0.01, permutations: 499, minSegment: 2, seed: 1 };

/**
 * What the permutation test shuffles. Plain series: the values within each segment. A pass rate
 * built from questions: each question's outcomes across the segment's runs, independently (the
 * question is the unit; a pass rate of 45 answers is not one draw), then the runs' rates again.
 */
export interface Permuter {
  /** The series' values for this order of things inside [start, end). */
  permuted(start: number, end: number, random: () => number): Float64Array;
}

export interface ChangePoint {
  /** Index of the first point after the change. */
  index: number;
  pValue: number;
  /** Q̂ of the split: the energy distance between the two sides, scaled by their sizes. */
  statistic: number;
}

/** Sum of |x_i − x_j| over pairs inside each prefix of `values`: prefix[k] covers values[0..k). */
function prefixPairSums(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  // Ranks by binary search in a natively sorted copy: equal values share a rank, which is harmless
  // (|x − x| adds 0 on either side of the sum).
  const sorted = Float64Array.from(values).sort();
  const rank = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < values[k]!) lo = mid + 1;
      else hi = mid;
    }
    rank[k] = lo + 1;
  }
  // Fenwick trees over ranks: how many earlier values sit below a rank, and their sum.
  const count = new Float64Array(n + 1);
  const sum = new Float64Array(n + 1);
  const out = new Float64Array(n + 1);
  let totalCount = 0;
  let totalSum = 0;
  for (let k = 0; k < n; k++) {
    const x = values[k]!;
    let below = 0;
    let belowSum = 0;
    for (let i = rank[k]!; i > 0; i -= i & -i) {
      below += count[i]!;
      belowSum += sum[i]!;
    }
    const aboveCount = totalCount - below;
    const aboveSum = totalSum - belowSum;
    out[k + 1] = out[k]! + (x * below - belowSum) + (aboveSum - x * aboveCount);
    for (let i = rank[k]!; i <= n; i += i & -i) {
      count[i]! += 1;
      sum[i]! += x;
    }
    totalCount += 1;
    totalSum += x;
  }
  return out;
}

/** The best split of `values` (Q̂ with α = 1, the right end fixed at the segment's end), in O(n log n). */
export function bestSplit(values: ArrayLike<number>, minSegment: number): { at: number; statistic: number } | null {
  const n = values.length;
  if (n < 2 * minSegment) return null;
  const left = prefixPairSums(values);
  const reversed = Float64Array.from(values).reverse();
  const right = prefixPairSums(reversed);
  const total = left[n]!;
  let best: { at: number; statistic: number } | null = null;
  for (let t = minSegment; t <= n - minSegment; t++) {
    const m = t;
    const k = n - t;
    const withinLeft = left[t]!;
    const withinRight = right[k]!;
    const between = total - withinLeft - withinRight;
    const e = (2 * between) / (m * k) - (m > 1 ? withinLeft / ((m * (m - 1)) / 2) : 0) - (k > 1 ? withinRight / ((k * (k - 1)) / 2) : 0);
    const statistic = ((m * k) / (m + k)) * e;
    // Ties keep the earliest split; a tiny tolerance keeps float noise from moving it.
    if (best === null || statistic > best.statistic + 1e-12) best = { at: t, statistic };
  }
  return best;
}

function shuffleInPlace(values: Float64Array, random: () => number): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const tmp = values[i]!;
    values[i] = values[j]!;
    values[j] = tmp;
  }
}

/** Shuffles a plain series' values within the segment. */
export function valuePermuter(values: ArrayLike<number>): Permuter {
  const all = Float64Array.from(values);
  return {
    permuted(start, end, random) {
      const copy = all.slice(start, end);
      shuffleInPlace(copy, random);
      return copy;
    },
  };
}

interface Candidate {
  start: number;
  end: number;
  at: number;
  statistic: number;
}

function bestOver(segments: ReadonlyArray<readonly [number, number]>, valuesOf: (s: number, e: number) => ArrayLike<number>, minSegment: number): Candidate | null {
  let best: Candidate | null = null;
  for (const [start, end] of segments) {
    const split = bestSplit(valuesOf(start, end), minSegment);
    if (split && (best === null || split.statistic > best.statistic + 1e-12)) best = { start, end, at: start + split.at, statistic: split.statistic };
  }
  return best;
}

/**
 * Hierarchical e-divisive: the best split over all current segments is kept when a permutation test
 * (values shuffled within every segment, the best split searched again) finds it significant; then
 * again on the finer segmentation, until a split is not. The test stops early once its p-value cannot
 * reach the significance level any more (Besag & Clifford's sequential Monte Carlo p-value).
 */
export function eDivisive(values: ArrayLike<number>, options: EDivisiveOptions = DEFAULT_E_DIVISIVE, permuter: Permuter = valuePermuter(values)): ChangePoint[] {
  const random = createRandom(options.seed);
  const found: ChangePoint[] = [];
  let segments: Array<[number, number]> = [[0, values.length]];
  const all = Float64Array.from(values);
  const observed = (s: number, e: number): ArrayLike<number> => all.subarray(s, e);
  const limit = Math.floor(options.significance * (options.permutations + 1));
  for (;;) {
    const best = bestOver(segments, observed, options.minSegment);
    // A flat series (every value equal) has nothing to split.
    if (best === null || !(best.statistic > 1e-12)) break;
    let atLeast = 0;
    let done = 0;
    while (done < options.permutations && atLeast < limit) {
      const permutedBest = bestOver(segments, (s, e) => permuter.permuted(s, e, random), options.minSegment);
      done += 1;
      if (permutedBest !== null && permutedBest.statistic >= best.statistic - 1e-12) atLeast += 1;
    }
    const pValue = (atLeast + 1) / (done + 1);
    if (pValue > options.significance || atLeast >= limit) break;
    found.push({ index: best.at, pValue, statistic: best.statistic });
    segments = segments.flatMap(([s, e]): Array<[number, number]> => (s === best.start && e === best.end ? [[s, best.at], [best.at, e]] : [[s, e]]));
  }
  return found.sort((a, b) => a.index - b.index);
}
