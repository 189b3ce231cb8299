// Paired bootstrap confidence interval of a relative change (head total / base total − 1) over matched items.
import { createRandom } from '../domain/random.js';
import { quantile } from '../stats/intervals.js';

/**
 * Why paired, and why for credits: what a request costs depends mostly on which question it
 * answers (a long answer costs ten times a short one), so comparing two unpaired bags of costs
 * would drown a real 20% price rise in that spread. Pairing each item with itself removes the
 * spread; resampling the items (not the requests) keeps the interval honest about how many
 * questions stand behind it. The statistic is a ratio of sums, i.e. exactly "credits per request"
 * over the same questions. The generator is seeded, so a comparison always gives the same interval.
 */
export interface PairedValue {
  base: number;
  head: number;
}

export interface ChangeInterval {
  /** head total / base total − 1 over all pairs. */
  estimate: number;
  low: number;
  high: number;
  pairs: number;
}

export interface BootstrapOptions {
  /** The interval is 1 − alpha (two-sided). */
  alpha: number;
  resamples?: number;
  seed?: number;
}

/** Fewer matched items than this cannot say anything about a spread: the interval is not computed. */
export const MIN_BOOTSTRAP_PAIRS = 3;

export function pairedBootstrapChange(pairs: readonly PairedValue[], options: BootstrapOptions): ChangeInterval | null {
  const n = pairs.length;
  const baseTotal = pairs.reduce((a, p) => a + p.base, 0);
  if (n < MIN_BOOTSTRAP_PAIRS || !(baseTotal > 0)) return null;
  const estimate = pairs.reduce((a, p) => a + p.head, 0) / baseTotal - 1;
  const random = mulberry32(options.seed ?? 0x6b62);
  const resamples = options.resamples ?? 4000;
  const changes: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let base = 0;
    let head = 0;
    for (let i = 0; i < n; i++) {
      const pick = pairs[Math.floor(random() * n)]!;
      base += pick.base;
      head += pick.head;
    }
    if (base > 0) changes.push(head / base - 1);
  }
  changes.sort((a, b) => a - b);
  return { estimate, low: quantile(changes, options.alpha / 2), high: quantile(changes, 1 - options.alpha / 2), pairs: n };
}

/** The one quantile rule (type 7), owned by stats/intervals.ts. */
export { quantile } from '../stats/intervals.js';

/** The harness's one seeded generator (mulberry32), under the name compare's tests know. */
export const mulberry32 = createRandom;
