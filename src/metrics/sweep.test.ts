import { describe, expect, it } from 'vitest';
import { sample } from '../test-support/fixtures.js';
import type { StageSummary, SweepPlan } from '../domain/load.js';
import { sweepProfile, sweepRates } from '../load/kinds/sweep/executor.js';
import { stageWindows } from '../runner/arrivals.js';
import type { Sample } from '../domain/sample.js';
import { createSweepJudge, rateIndexOf } from './sweep.js';

type Spec = Parameters<typeof sample>[0] & { offsetMs?: number; warmup?: true };
const at = ({ offsetMs = 0, warmup, ...spec }: Spec): Sample => ({ ...sample(spec), offset_ms: offsetMs, ...(warmup ? { warmup } : {}) });

const probe = (rate: number) => ({ concurrency: 1, start_ms: 0, end_ms: 1000, starts: rate, rate_per_s: rate });
const windows = [
  { index: 0, from_rate: 2, to_rate: 2, start_ms: 2000, end_ms: 12_000 },
  { index: 1, from_rate: 4, to_rate: 4, start_ms: 12_000, end_ms: 22_000 },
];
const plan: SweepPlan = { probes: { sequential: probe(1), saturation: probe(5) }, start_ms: 2000, rate_ms: 10_000, rates: [2, 4], slo: { ttfc_ms: ['p(95)<500'], pass_rate: ['rate>0.9'] } };
const stage = (index: number, achieved: number): StageSummary => ({
  ...windows[index]!, starts: achieved * 10, dropped: 0, requests: achieved * 10, errors: 0, errors_by_kind: {}, achieved_rate: achieved,
  error_rate: 0, pass_rate: 1, ttfc_ms: { p50: 1, p95: 2, p99: 3 }, latency_ms: null, corrected_latency_ms: null, credits_used: 0, credits_per_min: null,
});

describe('a sweep, judged per rate', () => {
  it('the rates lie evenly strictly between the probes, each a step stage holding its rate', () => {
    expect(sweepRates(1, 9, 3)).toEqual([3, 5, 7]);
    expect(sweepRates(9, 1, 1)).toEqual([5]);
    expect(stageWindows(sweepProfile([3, 5], 1000)).map((w) => [w.from_rate, w.to_rate])).toEqual([[3, 3], [5, 5]]);
  });

  it('a result belongs to the rate in which it was intended to start, whenever it finished; probes to none', () => {
    expect(rateIndexOf(windows, at({ offsetMs: 1000, latencyMs: 100 }))).toBe(-1);
    expect(rateIndexOf(windows, at({ offsetMs: 11_900, latencyMs: 5000 }))).toBe(0);
    expect(rateIndexOf(windows, { ...at({ offsetMs: 12_900, latencyMs: 200 }), scheduled_delay_ms: 1000 })).toBe(0);
    expect(rateIndexOf(windows, at({ offsetMs: 30_000 }))).toBe(1);
  });

  it('figures come from the stage table; SLOs (answer quality included) from the results; slo_max_rate the highest meeting all', () => {
    const judge = createSweepJudge(plan, windows);
    for (let i = 0; i < 10; i++) judge.add(at({ caseId: `a${i}`, offsetMs: 3000, ttfcMs: 100, latencyMs: 200 }));
    // The faster rate answers fast but wrong: it misses the pass_rate SLO.
    for (let i = 0; i < 10; i++) judge.add(at({ caseId: `b${i}`, offsetMs: 13_000, ttfcMs: 100, latencyMs: 200, pass: i < 5 }));
    judge.add(at({ caseId: 'probe', offsetMs: 500, ttfcMs: 9999, warmup: true }));
    const sweep = judge.finish([stage(0, 2), stage(1, 3.9)]);
    expect(sweep.rates.map((r) => r.achieved_rate)).toEqual([2, 3.9]);
    expect(sweep.rates.map((r) => r.slo_pass)).toEqual([true, false]);
    expect(sweep.rates[1]!.slo_failed).toEqual(['pass_rate=rate>0.9']);
    expect(sweep.slo_max_rate).toBe(2);
    expect(sweep.slo_max_target_rate).toBe(2);
    expect(sweep.probes).toMatchObject({ sequential_rate: 1, saturation_rate: 5 });
    expect(sweep.slo).toEqual(['ttfc_ms=p(95)<500', 'pass_rate=rate>0.9']);
    expect(sweep.slo_max_rate_is_lower_bound).toBe(false);
    // GuideLLM's per-rate streaming figures come from the stage table as well.
    const streamed = judge.finish([{ ...stage(0, 2), output_chars_per_s: 812.5, inter_chunk_ms: { p50: 20, p95: 41, p99: 60 } }, stage(1, 3.9)]);
    expect(streamed.rates[0]).toMatchObject({ output_chars_per_s: 812.5, inter_chunk_ms: { p50: 20, p95: 41 } });
    expect(streamed.rates[1]).toMatchObject({ output_chars_per_s: null, inter_chunk_ms: null });
  });

  it('every rate met every SLO: slo_max_rate is a lower bound', () => {
    const judge = createSweepJudge(plan, windows);
    for (let i = 0; i < 10; i++) judge.add(at({ caseId: `a${i}`, offsetMs: 3000, ttfcMs: 100, latencyMs: 200 }));
    for (let i = 0; i < 10; i++) judge.add(at({ caseId: `b${i}`, offsetMs: 13_000, ttfcMs: 100, latencyMs: 200 }));
    const sweep = judge.finish([stage(0, 2), stage(1, 3.9)]);
    expect(sweep.slo_max_rate).toBe(3.9);
    expect(sweep.slo_max_rate_is_lower_bound).toBe(true);
  });

  it('no SLO given: nothing judged, no slo_max_rate; a rate with no answer misses its SLOs', () => {
    expect(createSweepJudge({ ...plan, slo: {} }, windows).finish([stage(0, 2), stage(1, 4)])).toMatchObject({ slo_max_rate: null, rates: [{ slo_pass: null }, { slo_pass: null }] });
    expect(createSweepJudge(plan, windows).finish(null).rates.map((r) => r.slo_pass)).toEqual([false, false]);
  });

  it('the dropped gate judges the rates the answer rests on: drops at or below slo_max_rate count, drops above it do not', () => {
    const fill = (judge: ReturnType<typeof createSweepJudge>, late = 0): void => {
      for (let i = 0; i < 10; i++) judge.add({ ...at({ caseId: `a${i}`, offsetMs: 5000, ttfcMs: 100, latencyMs: 200 }), scheduled_delay_ms: i < late ? 1500 : 0 });
      for (let i = 0; i < 10; i++) judge.add(at({ caseId: `b${i}`, offsetMs: 13_000, ttfcMs: 100, latencyMs: 200, pass: i < 5 }));
    };
    // Rate 2 (past the SLO) dropped starts: probing past capacity, reported, not gated.
    const above = createSweepJudge(plan, windows);
    fill(above);
    const past = above.finish([stage(0, 2), { ...stage(1, 3.9), dropped: 7 }]);
    expect(past.slo_max_target_rate).toBe(2);
    expect(past.rates.map((r) => r.dropped)).toEqual([0, 7]);
    expect(past.dropped_gated).toBe(0);
    // Rate 1, the answer itself, was not delivered as planned: 3 never sent, 2 sent over 1 s late.
    const below = createSweepJudge(plan, windows);
    fill(below, 2);
    const under = below.finish([{ ...stage(0, 2), dropped: 3 }, { ...stage(1, 3.9), dropped: 7 }]);
    expect(under.rates.map((r) => r.dropped_late)).toEqual([2, 0]);
    expect(under.dropped_gated).toBe(5);
    // No rate named (no SLO): no claim to rest on delivered load.
    expect(createSweepJudge({ ...plan, slo: {} }, windows).finish([{ ...stage(0, 2), dropped: 3 }, stage(1, 4)]).dropped_gated).toBe(0);
  });
});
