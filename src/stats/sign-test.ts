// The clustered sign test of a paired shift, its inversion into an interval, and the smallest p it can reach.
import { twoSidedNormalP } from './normal.js';

/**
 * Why a sign test for medians (latency, TTFC): the signs of the paired differences are what a shift
 * of the middle moves, and one 30-second outlier cannot move them more than any other answer. The
 * signs are summed per cluster (a thread's turns share a sign flip under "no difference": the
 * cluster is the unit), and the interval is the test inverted (Lehmann 1975, ch. 4; with one
 * question per cluster it is the classic order-statistic interval of the median difference): the
 * shifts δ that the test at the same level does not reject. So the interval excludes zero exactly
 * when the call is made.
 */
export interface SignTestInput {
  /** Per question: b − a. */
  differences: ArrayLike<number>;
  /** Dense cluster index per question. */
  cluster: ArrayLike<number>;
  clusters: number;
}

/** Above this many (clusters × total |sign sum|) steps the exact distribution gives way to the normal one. */
const EXACT_STEPS = 4e6;

/** Two-sided p of "the paired differences are centred on δ". */
export function signTestP(input: SignTestInput, delta: number): number {
  const sums = new Int32Array(input.clusters);
  for (let i = 0; i < input.differences.length; i++) sums[input.cluster[i]!]! += Math.sign(input.differences[i]! - delta);
  let observed = 0;
  let range = 0;
  let squares = 0;
  for (const s of sums) {
    observed += s;
    range += Math.abs(s);
    squares += s * s;
  }
  if (range === 0) return 1;
  if (input.clusters * range > EXACT_STEPS) return twoSidedNormalP(observed / Math.sqrt(squares));
  return exactTail(sums, range, Math.abs(observed));
}

/** P(|Σ ε_c s_c| ≥ t) over the 2^C equally likely sign patterns, by convolution over the sums. */
function exactTail(sums: Int32Array, range: number, t: number): number {
  let dist = new Float64Array(2 * range + 1);
  dist[range] = 1;
  let next = new Float64Array(dist.length);
  for (const s of sums) {
    if (s === 0) continue;
    next.fill(0);
    for (let v = 0; v < dist.length; v++) {
      const p = dist[v]!;
      if (p === 0) continue;
      next[v + s] = next[v + s]! + p / 2;
      next[v - s] = next[v - s]! + p / 2;
    }
    [dist, next] = [next, dist];
  }
  let tail = 0;
  for (let v = 0; v < dist.length; v++) if (Math.abs(v - range) >= t - 1e-9) tail += dist[v]!;
  return Math.min(1, tail);
}

/** The smallest two-sided p any data could give with `clusters` clusters: every sign alike, 2 / 2^C. */
export function smallestSignTestP(clusters: number): number {
  return Math.min(1, 2 ** (1 - clusters));
}

/** Clusters needed before the smallest p, times `family` (Bonferroni), can fall below `alpha`. */
export function clustersNeeded(alpha: number, family: number): number {
  return Math.max(1, Math.floor(Math.log2((2 * family) / alpha)) + 1);
}

/** The median of the paired differences: the shift at which the sign statistic crosses zero. */
export function medianDifference(differences: ArrayLike<number>): number {
  const sorted = Float64Array.from(differences).sort();
  const mid = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The shifts the test at level `gamma` does not reject, [lo, hi] at observed differences; null when
 * every shift is kept (too few clusters for any call). Binary search on each side of the median:
 * the p-value rises toward the median and falls away from it.
 */
export function signTestInterval(input: SignTestInput, gamma: number): [number, number] | null {
  if (smallestSignTestP(input.clusters) >= gamma) return null;
  const values = Array.from(new Set(Array.from(input.differences))).sort((x, y) => x - y);
  const centre = medianDifference(input.differences);
  const kept = (delta: number): boolean => signTestP(input, delta) >= gamma;
  const below = values.filter((v) => v <= centre);
  const above = values.filter((v) => v >= centre);
  // Below the median: the first kept value (p rises with it). Above: the last kept value.
  let lo = below.length;
  let left = 0;
  let right = below.length - 1;
  while (left <= right) {
    const mid = (left + right) >> 1;
    if (kept(below[mid]!)) {
      lo = mid;
      right = mid - 1;
    } else left = mid + 1;
  }
  let hi = -1;
  left = 0;
  right = above.length - 1;
  while (left <= right) {
    const mid = (left + right) >> 1;
    if (kept(above[mid]!)) {
      hi = mid;
      left = mid + 1;
    } else right = mid - 1;
  }
  return [lo < below.length ? below[lo]! : centre, hi >= 0 ? above[hi]! : centre];
}
