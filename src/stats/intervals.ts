// Means over questions with cluster-robust standard errors, and the pass-rate interval built on them (Miller 2024, §2–3).
import { wilsonInterval } from './wilson.js';

/**
 * Per-question values grouped into clusters. Why clusters: questions of one thread share its
 * context (a wrong turn 1 drags turn 2 down), so they are not independent draws; treating them as
 * such understates the standard error (Miller 2024, "clustered standard errors"). A one-time case
 * is a cluster of its own. `cluster[i]` is a dense index 0..clusters−1.
 */
export interface ClusteredValues {
  values: ArrayLike<number>;
  cluster: ArrayLike<number>;
}

export interface MeanEstimate {
  n: number;
  clusters: number;
  mean: number;
  /** Cluster-robust standard error of the mean (CR1: × C/(C−1)); null with fewer than 2 clusters. */
  se: number | null;
}

/** Dense cluster indices from keys (thread ids, or a case's own key), in first-seen order. */
export function clusterIndex(keys: readonly string[]): number[] {
  const seen = new Map<string, number>();
  return keys.map((k) => {
    let i = seen.get(k);
    if (i === undefined) {
      i = seen.size;
      seen.set(k, i);
    }
    return i;
  });
}

export function countClusters(cluster: ArrayLike<number>): number {
  let max = -1;
  for (let i = 0; i < cluster.length; i++) max = Math.max(max, cluster[i]!);
  return max + 1;
}

/** The mean and its clustered standard error: Var = C/(C−1) · Σ_c (Σ_{i∈c} (x_i − x̄))² / n². */
export function clusteredMean({ values, cluster }: ClusteredValues): MeanEstimate {
  const n = values.length;
  if (n === 0) return { n: 0, clusters: 0, mean: NaN, se: null };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const mean = sum / n;
  const c = countClusters(cluster);
  const residual = new Float64Array(c);
  for (let i = 0; i < n; i++) residual[cluster[i]!]! += values[i]! - mean;
  if (c < 2) return { n, clusters: c, mean, se: null };
  let ss = 0;
  for (let k = 0; k < c; k++) ss += residual[k]! * residual[k]!;
  return { n, clusters: c, mean, se: Math.sqrt((c / (c - 1)) * ss) / n };
}

/**
 * The 95% interval of a pass rate over questions (each question's repeats averaged first).
 * Wilson's interval holds at small n where the normal one does not (it never leaves [0, 1] and
 * keeps its coverage at 20 questions); clustering and repeats enter through the effective number
 * of questions, n_eff = p(1 − p) / SE², with SE the clustered one (Kish's design effect). Strongly
 * correlated repeats leave n_eff near the number of questions; shared threads lower it.
 */
export function passRateInterval(data: ClusteredValues, answers: number = data.values.length, confidence = 0.95): [number, number] {
  const est = clusteredMean(data);
  if (est.n === 0) return [0, 1];
  const p = est.mean;
  let nEff = est.n;
  if (est.se !== null && est.se > 0 && p > 0 && p < 1) nEff = (p * (1 - p)) / (est.se * est.se);
  // Never more certain than the judged answers behind it (`answers`), never below one question.
  nEff = Math.max(1, Math.min(nEff, Math.max(answers, est.n)));
  return wilsonInterval(p * nEff, nEff, confidence);
}

/** Linear interpolation between order statistics (type 7, R's default). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.min(sorted.length - 1, lower + 1);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

/** The median of a typed array, sorting it in place. */
export function medianInPlace(values: Float64Array): number {
  if (values.length === 0) return NaN;
  values.sort();
  return quantile(values, 0.5);
}
