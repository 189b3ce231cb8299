// compare.json's pass_rate: base → head over the matched items, paired per question, with a noise-aware verdict.
import { clusterIndex, pairedTest } from '../stats/index.js';
import type { ItemDigest } from './collect.js';
import type { ItemChange, PassRateChange } from './types.js';

/**
 * Why paired over matched items: the same questions were asked of both runs, so the change of the
 * pass rate is the mean of per-item changes (repeats averaged per item first, Miller 2024), and its
 * interval is the test inverted (stats/paired.ts: clustered t, or Tango's score interval for single answers); one question asked of several models, or the turns of
 * one thread, are a cluster. One flipped answer of 200 moves the rate by half a point and is not
 * significant: the run fails on this gate only when the drop is real and larger than --tolerance.
 */
export function comparePassRate(
  base: ReadonlyMap<string, ItemDigest>, head: ReadonlyMap<string, ItemDigest>, matched: readonly string[], alpha: number, tolerance: number,
): PassRateChange | null {
  const a: number[] = [];
  const b: number[] = [];
  const clusters: string[] = [];
  let single = true;
  for (const key of matched) {
    const x = base.get(key);
    const y = head.get(key);
    if (!x || !y || x.runs === 0 || y.runs === 0) continue;
    a.push(x.passed / x.runs);
    b.push(y.passed / y.runs);
    clusters.push(x.thread_id !== null ? `thread:${x.thread_id}` : `case:${x.case_id ?? key}`);
    if (x.runs !== 1 || y.runs !== 1) single = false;
  }
  const cluster = clusterIndex(clusters);
  const binarySingle = single && new Set(cluster).size === cluster.length;
  const r = pairedTest({ a, b, cluster }, { statistic: 'mean', binarySingle, proportion: true, alpha, bounds: [-1, 1] });
  if (!r) return null;
  const mean = (xs: number[]): number => xs.reduce((s, v) => s + v, 0) / xs.length;
  // The call is read from the interval (one method: it excludes zero exactly when p < alpha).
  const significant = r.significant;
  const ci = r.ci95 ?? [-1, 1];
  const verdict = significant && r.difference < -tolerance ? 'regressed' : significant && r.difference > tolerance ? 'improved' : 'no_difference';
  const round = (x: number): number => Number(x.toFixed(4));
  return {
    items: a.length, base: round(mean(a)), head: round(mean(b)), difference: round(r.difference), ci95: [round(ci[0]), round(ci[1])],
    p_value: Number(r.p_value.toPrecision(4)), method: r.method, alpha, tolerance, verdict,
  };
}

/** Repeats that disagreed on either side: a pass → fail of such an item is noise until shown otherwise. */
export function isFlakyChange(change: Pick<ItemChange, 'base' | 'head'>): boolean {
  const flaky = (s: { runs: number; passed: number }): boolean => s.runs >= 2 && s.passed > 0 && s.passed < s.runs;
  return flaky(change.base) || flaky(change.head);
}
