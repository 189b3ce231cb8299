// Stages and the knee, on constructed timeline lines: counts per stage, and which of the three turned first.
import { describe, expect, it } from 'vitest';
import { sample } from '../test-support/fixtures.js';
import type { TimelineLine } from '../domain/timeline.js';
import { createHarnessSaturation } from './harness-saturation.js';
import { IntervalSum } from './interval-bucket.js';
import { createLoadStages, risingEndMs } from './load-stages.js';
import type { StageWindow } from './stage-window.js';

interface SecondSpec {
  starts: number;
  latencyMs: number;
  errors?: number;
  failed?: number;
  target?: number;
}

/** Second `i` of a run (offset i s): `starts` starts, as many answers at `latencyMs`, some errors or failed checks. */
function line(i: number, spec: SecondSpec): TimelineLine {
  const sum = new IntervalSum();
  sum.starts = spec.starts;
  for (let k = 0; k < spec.starts; k++) {
    const error = k < (spec.errors ?? 0);
    const failed = !error && k < (spec.errors ?? 0) + (spec.failed ?? 0);
    sum.addSample({ ...sample({ latencyMs: spec.latencyMs, outcome: error ? 'http_error' : 'ok', pass: !error && !failed, credits: 0.001 }), corrected_latency_ms: spec.latencyMs });
  }
  return sum.toLine(1000 + i, i * 1000, spec.target ?? spec.starts);
}

const ramp: StageWindow[] = [
  { index: 0, from_rate: 0, to_rate: 20, start_ms: 0, end_ms: 60_000 },
  { index: 1, from_rate: 20, to_rate: 20, start_ms: 60_000, end_ms: 70_000 },
];

function run(stages: StageWindow[], specOf: (i: number, rate: number) => SecondSpec, seconds = 70) {
  const acc = createLoadStages(stages);
  for (let i = 0; i < seconds; i++) acc.add(line(i, specOf(i, Math.round(Math.min(20, i / 3)))));
  return acc.finish();
}

describe('load stages', () => {
  it('sums each stage: starts, achieved rate, error and pass rates, credits per minute', () => {
    const { stages } = run(ramp, (i, rate) => ({ starts: i >= 60 ? 20 : rate, latencyMs: 100, errors: i >= 60 ? 1 : 0 }));
    const s1 = stages[1]!;
    expect(s1).toMatchObject({ index: 1, from_rate: 20, to_rate: 20, starts: 200, requests: 200, errors: 10, achieved_rate: 20, error_rate: 0.05, pass_rate: 0.95 });
    expect(s1.credits_per_min).toBeCloseTo(0.001 * 200 * 6, 5);
    expect(s1.latency_ms!.p95).toBeCloseTo(100, 0);
    expect(s1.corrected_latency_ms!.p95).toBeCloseTo(100, 0);
    expect(stages[0]!.starts).toBe(Array.from({ length: 60 }, (_, i) => Math.round(i / 3)).reduce((a, b) => a + b, 0));
  });

  it('worker stages: their unit in each stage, the workers at the knee, and a thread\'s later turns after the end in the last stage', () => {
    const workers = ramp.map((s) => ({ ...s, target_unit: 'workers' as const }));
    const acc = createLoadStages(workers);
    for (let i = 0; i < 70; i++) acc.add(line(i, { starts: Math.round(Math.min(20, i / 3)), latencyMs: Math.min(20, i / 3) >= 12 ? 450 : 100 }));
    acc.addSample({ ...sample({ latencyMs: 100 }), offset_ms: 65_000 });
    acc.addSample({ ...sample({ latencyMs: 100 }), offset_ms: 71_000 });
    const { stages, knee } = acc.finish();
    expect(stages.map((s) => [s.target_unit, s.requests])).toEqual([['workers', 0], ['workers', 2]]);
    // The knee's window 35–40 s: the ramp asks for 20 × 37.5 / 60 workers in its middle.
    expect(knee).toMatchObject({ at_ms: 35_000, workers: 13 });
  });

  it('a result due at a stage\'s edge is in the stage it was due in, whatever the microseconds of its offset and lateness', () => {
    const acc = createLoadStages(ramp);
    // Due at 0 and at 60 s, recorded 1 µs early by the rounding of two figures kept to the microsecond.
    acc.addSample({ ...sample({ latencyMs: 100 }), offset_ms: 12.345, scheduled_delay_ms: 12.346 });
    acc.addSample({ ...sample({ latencyMs: 100 }), offset_ms: 60_003.2, scheduled_delay_ms: 3.201 });
    expect(acc.finish().stages.map((s) => s.requests)).toEqual([1, 1]);
  });

  it('output chars/s and inter-chunk latency per stage: the answers of the requests that started in it, over its covered seconds', () => {
    const acc = createLoadStages(ramp);
    for (let i = 0; i < 70; i++) acc.add(line(i, { starts: 1, latencyMs: 100 }));
    // Stage 2 (60–70 s): four answers of 500 characters, one of them finishing after the end; an error adds none.
    for (const offset of [61_000, 62_000, 65_000, 69_900]) acc.addSample({ ...sample({ latencyMs: 900, text: 'x'.repeat(500) }), offset_ms: offset, gap_mean_ms: offset / 1000 });
    acc.addSample({ ...sample({ latencyMs: 100, outcome: 'http_error', text: 'x'.repeat(999) }), offset_ms: 63_000 });
    const { stages } = acc.finish();
    expect(stages[1]!.output_chars_per_s).toBe(200);
    expect(stages[0]!.output_chars_per_s).toBe(0);
    expect(stages[1]!.inter_chunk_ms!.p50).toBeCloseTo(62, 0);
    expect(stages[1]!.inter_chunk_ms!.p95).toBeCloseTo(69.9, 0);
  });

  it('finds the knee where p95 latency doubled, as the lowest achieved rate, named', () => {
    const { knee } = run(ramp, (_i, rate) => ({ starts: rate, latencyMs: rate >= 12 ? 450 : 100 }));
    expect(knee).toMatchObject({ by: 'latency', reasons: ['latency'], latency_metric: 'corrected_latency_ms', window_ms: 5000 });
    // The first window whose answers slowed starts at 35 s: rates 12, 12, 12, 13, 13.
    expect(knee!.at_ms).toBe(35_000);
    expect(knee!.rate_per_s).toBeCloseTo(12.4, 5);
  });

  it('names errors past 1% and a pass rate 5 points down', () => {
    expect(run(ramp, (_i, rate) => ({ starts: rate, latencyMs: 100, errors: rate >= 15 ? 1 : 0 })).knee).toMatchObject({ by: 'errors' });
    expect(run(ramp, (_i, rate) => ({ starts: rate, latencyMs: 100, failed: rate >= 10 ? 2 : 0 })).knee).toMatchObject({ by: 'pass_rate' });
    expect(run(ramp, (_i, rate) => ({ starts: rate, latencyMs: 100 })).knee).toBeNull();
  });

  it('after an early stop, a window is divided by the seconds it covered, and a partial window never names the knee alone', () => {
    // 40/s throughout, p95 fine until the run stops 1 s into a window where it doubles.
    const stages: StageWindow[] = [{ index: 0, from_rate: 0, to_rate: 60, start_ms: 0, end_ms: 40_000 }];
    const acc = createLoadStages(stages);
    for (let i = 0; i < 31; i++) acc.add(line(i, { starts: 40, latencyMs: i >= 30 ? 500 : 100 }));
    expect(acc.finish().knee).toBeNull(); // today: a knee at 8/s (40 starts over 5 s)
    // The same slowdown over a full window and then a partial one: the knee reads the true 40/s.
    const full = createLoadStages(stages);
    for (let i = 0; i < 36; i++) full.add(line(i, { starts: 40, latencyMs: i >= 30 ? 500 : 100 }));
    const knee = full.finish().knee!;
    expect(knee.at_ms).toBe(30_000);
    expect(knee.rate_per_s).toBe(40);
  });

  it('puts a result in the stage it started in, whenever it finished (even after the last stage)', () => {
    const stages: StageWindow[] = [
      { index: 0, from_rate: 10, to_rate: 10, start_ms: 0, end_ms: 2000 },
      { index: 1, from_rate: 10, to_rate: 10, start_ms: 2000, end_ms: 4000 },
    ];
    const acc = createLoadStages(stages);
    for (let i = 0; i < 4; i++) acc.add(line(i, { starts: 10, latencyMs: 100 }));
    // Slow answers of the last stage that finish 5 s after the run's schedule ended: their lines lie past every stage.
    for (let i = 4; i < 10; i++) acc.add(line(i, { starts: 0, latencyMs: 100 }));
    for (let k = 0; k < 10; k++) acc.addSample({ ...sample({ latencyMs: 100, outcome: 'ok', pass: true }), offset_ms: 500 + k * 100 });
    for (let k = 0; k < 10; k++) acc.addSample({ ...sample({ latencyMs: 6000, outcome: 'ok', pass: true }), offset_ms: 2500 + k * 100, corrected_latency_ms: 6000 });
    const [first, last] = acc.finish().stages;
    expect(first!.requests).toBe(10);
    expect(last!.requests).toBe(10);
    expect(last!.corrected_latency_ms!.p95).toBeGreaterThanOrEqual(5990);
  });

  it('a constant rate has no rising part, so no knee', () => {
    expect(risingEndMs([{ index: 0, from_rate: 5, to_rate: 5, start_ms: 0, end_ms: 10_000 }])).toBeNull();
    expect(risingEndMs(ramp)).toBe(60_000);
  });
});

describe('harness saturation', () => {
  it('says so when starts fall short of the target with slots free, not when the slots were full', () => {
    const short = createHarnessSaturation({ maxInFlight: 64 });
    for (let i = 0; i < 10; i++) short.add({ ...line(i, { starts: 5, latencyMs: 10, target: 10 }), in_flight_max: 3 });
    expect(short.finish()).toMatchObject({ saturated: true, shortfall_windows: 2 });
    const full = createHarnessSaturation({ maxInFlight: 3 });
    for (let i = 0; i < 10; i++) full.add({ ...line(i, { starts: 5, latencyMs: 10, target: 10 }), in_flight_max: 3 });
    expect(full.finish()).toMatchObject({ saturated: false, shortfall_windows: 0 });
  });

  it('judges a Poisson schedule against its own planned starts, not the mean rate', () => {
    // A mean of 30/s whose Poisson draw planned 24 or 25 starts a second in one window: all sent.
    const h = createHarnessSaturation({ maxInFlight: 64 });
    for (let i = 0; i < 10; i++) h.add({ ...line(i, { starts: i < 5 ? 24 : 30, latencyMs: 10, target: 30 }), planned: i < 5 ? 24 : 30, in_flight_max: 3 });
    expect(h.finish()).toMatchObject({ saturated: false, shortfall_windows: 0 });
    // Planned starts the harness did not send are a shortfall still.
    const short = createHarnessSaturation({ maxInFlight: 64 });
    for (let i = 0; i < 10; i++) short.add({ ...line(i, { starts: 10, latencyMs: 10, target: 30 }), planned: 30, in_flight_max: 3 });
    expect(short.finish()).toMatchObject({ saturated: true });
  });

  it('says so when the event loop lagged past the limit for more than one second', () => {
    const h = createHarnessSaturation({ maxInFlight: null });
    for (let i = 0; i < 5; i++) h.add({ ...line(i, { starts: 1, latencyMs: 10 }), loop_delay_p99_ms: i < 2 ? 150 : 5 });
    expect(h.finish()).toMatchObject({ saturated: true, seconds_over_limit: 2, loop_delay_p99_max_ms: 150 });
  });
});
