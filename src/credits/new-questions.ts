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
  return { varianceOfMean: ((clusters / (clusters - 1)) * ss) / (n * n), df: clusters - 1 };
}
