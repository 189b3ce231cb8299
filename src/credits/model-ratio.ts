// The cross-model ratio: what the items two models were both asked cost on each measures the ratio of
// their prices (an answer's cost is its item's size times its model's price, give or take a little
// model-specific shape), so an item seen on one model predicts what it costs on the other.

/** One model's observed mean cost per item key. */
export type CostsByKey = ReadonlyMap<string, { mean: number }>;

/** An item a model was not asked, predicted from what another model was seen to pay for it. */
export interface BorrowedCost {
  key: string;
  credits: number;
  /** The model it was seen on, and the relative variance of that pair's ratio (the ratio's own error). */
  from: string;
  ratioRelVar: number;
}

/**
 * What the log-ratio of one item's cost on two models scatters by around the pair's ratio, before any
 * is seen: a coefficient of variation of 0.3 (twice what the models' shapes were seen to differ by on
 * the reference service), worth two shared items. It fades as linking items are seen.
 */
export const PRIOR_SHAPE_VAR = 0.09;
export const PRIOR_SHAPE_DF = 2;

export interface ModelLinks {
  /** Per model, the items it was not asked but another model was, at that model's cost times their ratio. */
  borrowed: Map<string, BorrowedCost[]>;
  /** Relative variance of one borrowed item around its prediction (the models' shapes differ). */
  shapeVar: number;
}

const positive = (x: number): number => Math.max(x, 1e-12);

/**
 * For each model, every other model that shares observed items with it, most shared first; the ratio
 * of their costs over the shared items (a ratio of sums), and the scatter of the items' log-ratios
 * pooled over every pair that shares two or more.
 */
export function linkModels(costs: ReadonlyMap<string, CostsByKey>): ModelLinks {
  const models = [...costs.keys()];
  let ss = 0;
  let df = 0;
  const pairs = new Map<string, { other: string; shared: string[]; ratio: number }[]>();
  for (const m of models) pairs.set(m, []);
  for (let a = 0; a < models.length; a += 1) {
    for (let b = a + 1; b < models.length; b += 1) {
      const ca = costs.get(models[a]!)!;
      const cb = costs.get(models[b]!)!;
      const shared = [...ca.keys()].filter((k) => cb.has(k));
      if (shared.length === 0) continue;
      const sumA = shared.reduce((s, k) => s + ca.get(k)!.mean, 0);
      const sumB = shared.reduce((s, k) => s + cb.get(k)!.mean, 0);
      if (!(sumA > 0 && sumB > 0)) continue;
      pairs.get(models[a]!)!.push({ other: models[b]!, shared, ratio: sumA / sumB });
      pairs.get(models[b]!)!.push({ other: models[a]!, shared, ratio: sumB / sumA });
      if (shared.length >= 2) {
        const logs = shared.map((k) => Math.log(positive(ca.get(k)!.mean) / positive(cb.get(k)!.mean)));
        const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
        ss += logs.reduce((s, x) => s + (x - mean) ** 2, 0);
        df += logs.length - 1;
      }
    }
  }
  const shapeVar = (ss + PRIOR_SHAPE_DF * PRIOR_SHAPE_VAR) / (df + PRIOR_SHAPE_DF);
  const borrowed = new Map<string, BorrowedCost[]>();
  for (const m of models) {
    const own = costs.get(m)!;
    const links = pairs.get(m)!.sort((x, y) => y.shared.length - x.shared.length);
    const taken = new Map<string, BorrowedCost>();
    for (const link of links) {
      for (const [key, cost] of costs.get(link.other)!) {
        if (own.has(key) || taken.has(key)) continue;
        taken.set(key, { key, credits: cost.mean * link.ratio, from: link.other, ratioRelVar: shapeVar / link.shared.length });
      }
    }
    borrowed.set(m, [...taken.values()]);
  }
  return { borrowed, shapeVar };
}
