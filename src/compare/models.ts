// Per-model changes between two runs: pass rate, TTFC and latency percentiles with a rank test, credits per request with a paired bootstrap.
import { fromUnits } from '../credits/units.js';
import { percentilesOfMs } from '../metrics/histogram.js';
import { setOwn } from '../metrics/own-record.js';
import { pairedBootstrapChange, type PairedValue } from './bootstrap.js';
import type { ItemDigest, ModelTotals, RunDigest } from './collect.js';
import { holmAdjust, mannWhitneyU } from './mann-whitney.js';
import type { CompareOptions, CreditsChange, ModelChange, Percentiles, TimingChange } from './types.js';

type TimingKey = 'ttfc_ms' | 'latency_ms';

/** Fewer answers than this per side cannot reach significance at any useful alpha: say so rather than judge. */
export const MIN_TIMING_SAMPLES = 5;

interface ModelPool {
  ttfc_ms: { base: number[]; head: number[] };
  latency_ms: { base: number[]; head: number[] };
  credits: PairedValue[];
}

/**
 * Only items asked on both sides feed the tests: a question added to the suite (a long answer,
 * say) must not look like the service slowing down. Repeats are pooled: each is one more draw
 * of the same item, and both runs then hold the same mix of questions.
 */
function poolsOf(base: RunDigest, head: RunDigest, matched: readonly string[]): Map<string, ModelPool> {
  const pools = new Map<string, ModelPool>();
  for (const key of matched) {
    const b = base.items.get(key)!;
    const h = head.items.get(key)!;
    let pool = pools.get(b.model);
    if (!pool) pools.set(b.model, (pool = { ttfc_ms: { base: [], head: [] }, latency_ms: { base: [], head: [] }, credits: [] }));
    pushAll(pool.ttfc_ms.base, b.ttfcs);
    pushAll(pool.ttfc_ms.head, h.ttfcs);
    pushAll(pool.latency_ms.base, b.latencies);
    pushAll(pool.latency_ms.head, h.latencies);
    const pair = creditsPair(b, h);
    if (pair) pool.credits.push(pair);
  }
  return pools;
}

function pushAll(target: number[], values: readonly number[]): void {
  for (const v of values) target.push(v);
}

function creditsPair(b: ItemDigest, h: ItemDigest): PairedValue | null {
  if (b.creditsCount === 0 || h.creditsCount === 0) return null;
  return { base: fromUnits(b.creditUnits) / b.creditsCount, head: fromUnits(h.creditUnits) / h.creditsCount };
}

/**
 * summary.json's percentiles of these timings (metrics/histogram.ts owns the method): a run's p95
 * in compare.json is the p95 its summary.json shows for the same requests, never a second figure.
 */
export function percentilesOf(values: readonly number[]): Percentiles {
  const p = percentilesOfMs(values);
  return p === null ? { n: 0, p50: null, p95: null, p99: null } : { n: p.count, p50: p.p50, p95: p.p95, p99: p.p99 };
}

const relative = (base: number | null, head: number | null): number | null =>
  base === null || head === null || base === 0 ? null : head / base - 1;

function timingChange(samples: { base: number[]; head: number[] }): TimingChange {
  const base = percentilesOf(samples.base);
  const head = percentilesOf(samples.head);
  const enough = base.n >= MIN_TIMING_SAMPLES && head.n >= MIN_TIMING_SAMPLES;
  const test = enough ? mannWhitneyU(samples.base, samples.head) : null;
  return {
    base, head,
    change: { p50: relative(base.p50, head.p50), p95: relative(base.p95, head.p95), p99: relative(base.p99, head.p99) },
    test: { method: 'mann-whitney-u', u: test?.u ?? null, z: test?.z ?? null, p_value: test?.pValue ?? null, p_adjusted: null, significant: false },
    regression: false,
    improvement: false,
  };
}

/**
 * The verdict: significant (Holm-adjusted p below alpha) AND the median moved by more than the
 * tolerance. The median, not p95: the rank test asks whether the middle shifted, and p95 of a
 * few dozen answers is nearly their maximum, one slow request away from a false alarm.
 */
function judgeTimings(changes: TimingChange[], options: CompareOptions): void {
  const adjusted = holmAdjust(changes.map((c) => c.test.p_value));
  changes.forEach((c, i) => {
    c.test.p_adjusted = adjusted[i] ?? null;
    c.test.significant = c.test.p_adjusted !== null && c.test.p_adjusted < options.alpha;
    const median = c.change.p50;
    c.regression = c.test.significant && median !== null && median > options.latencyTolerance;
    c.improvement = c.test.significant && median !== null && median < -options.latencyTolerance;
  });
}

function creditsChange(pairs: PairedValue[], base: ModelTotals | undefined, head: ModelTotals | undefined, alpha: number, options: CompareOptions): CreditsChange {
  const perRequest = (t: ModelTotals | undefined): number | null => (t && t.creditsKnown > 0 ? fromUnits(t.creditUnits) / t.creditsKnown : null);
  const resamples = Math.min(20_000, Math.max(2000, Math.ceil(100 / alpha)));
  const interval = pairedBootstrapChange(pairs, { alpha, resamples });
  const significant = interval !== null && (interval.low > 0 || interval.high < 0);
  const change = interval?.estimate ?? null;
  return {
    base: perRequest(base),
    head: perRequest(head),
    change,
    test: { method: 'paired-bootstrap', matched_items: pairs.length, ci: interval ? [interval.low, interval.high] : null, significant },
    regression: significant && change !== null && change > options.creditsTolerance,
    improvement: significant && change !== null && change < -options.creditsTolerance,
  };
}

// Not judged is neither passed nor failed: left out, as summary.json's pass rate leaves it.
const passRate = (t: ModelTotals | undefined): number | null => {
  const judged = t ? t.requests - (t.notJudged ?? 0) : 0;
  return t && judged > 0 ? t.passed / judged : null;
};

export function compareModels(base: RunDigest, head: RunDigest, matched: readonly string[], options: CompareOptions): Record<string, ModelChange> {
  const pools = poolsOf(base, head, matched);
  const names = [...new Set([...base.models.keys(), ...head.models.keys()])].sort();
  const empty = (): ModelPool => ({ ttfc_ms: { base: [], head: [] }, latency_ms: { base: [], head: [] }, credits: [] });
  // Bonferroni over models for the credits intervals: one comparison, one false-alarm budget.
  const creditsAlpha = options.alpha / Math.max(1, pools.size);
  const models: Record<string, ModelChange> = {};
  for (const name of names) {
    const pool = pools.get(name) ?? empty();
    const b = base.models.get(name);
    const h = head.models.get(name);
    const [br, hr] = [passRate(b), passRate(h)];
    setOwn(models, name, {
      matched: b !== undefined && h !== undefined,
      pass_rate: { base: br, head: hr, change: br === null || hr === null ? null : hr - br },
      requests: { base: b?.requests ?? 0, head: h?.requests ?? 0 },
      ttfc_ms: timingChange(pool.ttfc_ms),
      latency_ms: timingChange(pool.latency_ms),
      credits_per_request: creditsChange(pool.credits, b, h, creditsAlpha, options),
    });
  }
  judgeTimings(Object.values(models).flatMap((m) => (['ttfc_ms', 'latency_ms'] as TimingKey[]).map((k) => m[k])), options);
  return models;
}
