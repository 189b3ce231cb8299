// How far the mean cost per request of questions still to come can be from the suite's: the suite's
// questions as a sample of them, clustered by thread (a volume forecast, `--requests N`).

/**
 * Why: a forecast of one more run of the suite knows which questions will be asked, so an item
 * observed is known and only its repeats scatter (the narrow interval). Traffic of N new requests
 * asks new questions of the same kind: their mean cost is only as well known as a mean over the
 * suite's questions can be, whatever was observed of each. That is the between-question variance
 * over the number of questions (a thread's turns one cluster: they share a topic and a context),
 * the cluster-robust variance of a mean (Miller 2024, eq. 3; Cameron & Miller 2015, CR1).
 */
export interface NewQuestionsSpread {
  /** Variance of the mean cost per request over questions of the suite's kind. */
  varianceOfMean: number;
  /** Clusters − 1: the degrees of freedom of that variance. */
  df: number;
}

/** The cluster of an item key: a thread's turns (`turn:<thread>#<k>:<hash>`) share one; a case is its own. */
export function clusterOfItem(key: string): string {
  const turn = /^turn:(.*)#\d+:[^:]*$/.exec(key);
  return turn ? `thread:${turn[1]!}` : key;
}

/** From each observed item's mean cost; null with fewer than two clusters (no spread to tell). */
export function newQuestionsSpread(costs: ReadonlyMap<string, { mean: number }>): NewQuestionsSpread | null {
  const n = costs.size;
  if (n < 2) return null;
  let sum = 0;
  for (const c of costs.values()) sum += c.mean;
  const mean = sum / n;
  const residual = new Map<string, number>();
  for (const [key, c] of costs) {
    const cluster = clusterOfItem(key);
    residual.set(cluster, (residual.get(cluster) ?? 0) + c.mean - mean);
  }
  const clusters = residual.size;
  if (clusters < 2) return null;
  let ss = 0;
  for (const r of residual.values()) ss += r * r;
  const clustered = ((clusters / (clusters - 1)) * ss) / (n * n);
  return { varianceOfMean: Math.max(clustered, logNormalVarianceOfMean(costs, mean, clusters)), df: clusters - 1 };
}

/**
 * Costs are skewed (a few dear answers): from a dozen questions the sample variance misses the long
 * tail more often than not, and the interval falls short. The variance a log-normal with the costs'
 * log-scale spread gives the mean, m²(e^{s²} − 1)/C (Land 1971; Zhou & Gao 1997), sees the tail
 * in the spread of the logs; the larger of the two is kept.
 */
function logNormalVarianceOfMean(costs: ReadonlyMap<string, { mean: number }>, mean: number, clusters: number): number {
  const logs = [...costs.values()].filter((c) => c.mean > 0).map((c) => Math.log(c.mean));
  if (logs.length < 2) return 0;
  const logMean = logs.reduce((a, v) => a + v, 0) / logs.length;
  const s2 = logs.reduce((a, v) => a + (v - logMean) ** 2, 0) / (logs.length - 1);
  return (mean * mean * Math.expm1(s2)) / clusters;
}
