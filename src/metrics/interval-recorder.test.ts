// The interval recorder: one line per wall-clock second, counts in the second they happened, quiet seconds kept.
import { describe, expect, it } from 'vitest';
import { sample } from '../test-support/fixtures.js';
import { IntervalSum } from './interval-bucket.js';
import { IntervalRecorder } from './interval-recorder.js';

describe('IntervalRecorder', () => {
  it('closes each wall-clock second into one line, in-flight carried, quiet seconds included', () => {
    // Monotonic 0 is wall second 100.000; the run starts 200 ms into it.
    const r = new IntervalRecorder({ runStartMs: 200, wallOriginMs: 100_000, targetRateAt: (t) => (t < 2000 ? 2 : 4) });
    r.start(300);
    r.start(600);
    r.sample(sample({ latencyMs: 50 }), 700);
    r.settled(700);
    r.sample(sample({ outcome: 'http_error', pass: false }), 1500);
    r.settled(1500);
    r.dropped(3, 1600);
    expect(r.flush(1999, () => 1.5)).toHaveLength(1);
    const lines = [...r.flush(3100, () => 2), ...r.finish(3200, () => null)];
    expect(lines.map((l) => l.t)).toEqual([101, 102, 103]);
    const all = [r.live()!.line];
    expect(all[0]!.t).toBe(103);
    const [second101, second102] = lines;
    expect(second101).toMatchObject({ starts: 0, completed: 1, dropped: 3, errors: { E_SERVER: 1 }, in_flight: 0, in_flight_max: 1, failed: 1 });
    expect(second102).toMatchObject({ starts: 0, completed: 0, in_flight: 0, loop_delay_p99_ms: 2, target_rate: 3.6 });
    // The target is the rate's integral over each second: 0.2 s at 2/s and 0.8 s at 4/s in second 102.
    expect(second101!.target_rate).toBe(2);
  });

  it('names a second\'s dropped starts when the load names them; a clock that goes on from an earlier t0 begins at the second it opened', () => {
    // A resumed replay: t0 is 5 s before the run opened (at monotonic 5000, wall second 5).
    const r = new IntervalRecorder({ runStartMs: 0, openedAtMs: 5000, wallOriginMs: 0 });
    r.dropped(2, 5100, ['case:line-3|model:default|r1', 'case:line-4|model:default|r1']);
    r.dropped(1, 5200);
    r.dropped(1, 6100, ['case:line-9|model:default|r1']);
    const lines = r.finish(6500);
    expect(lines.map((l) => [l.t, l.offset_ms, l.dropped, l.dropped_items ?? null])).toEqual([
      [5, 5000, 3, ['case:line-3|model:default|r1', 'case:line-4|model:default|r1']],
      [6, 6000, 1, ['case:line-9|model:default|r1']],
    ]);
  });

  it('records starts and answers with their percentiles and exact credits', () => {
    const r = new IntervalRecorder({ runStartMs: 0, wallOriginMs: 0, targetRateAt: () => 5 });
    for (let i = 0; i < 5; i++) r.start(100 * i);
    for (let i = 0; i < 5; i++) r.sample({ ...sample({ latencyMs: 100 * (i + 1), credits: 0.00001 }), corrected_latency_ms: 1000 }, 600);
    const [line] = r.flush(1000, () => 3);
    expect(line).toMatchObject({ t: 0, offset_ms: 0, target_rate: 5, starts: 5, completed: 5, ok: 5, passed: 5, in_flight: 5, credit_units: 5 });
    // HDR's values: the top of the value's bucket (3 significant digits).
    expect(line!.latency_ms).toMatchObject({ count: 5, p50: expect.closeTo(300, 0), max: expect.closeTo(500, 0) });
    expect(line!.corrected_latency_ms?.p95).toBeCloseTo(1000, 0);
    // Its histograms add back exactly.
    const sum = new IntervalSum();
    sum.addLine(line!);
    sum.addLine(line!);
    expect(sum.percentiles('latency_ms')).toEqual({ ...line!.latency_ms, count: 10 });
    const live = r.live()!;
    expect(live).toMatchObject({ achieved_rate: 5, target_rate: 5, in_flight: 5, p95_ms: line!.corrected_latency_ms!.p95, p95_metric: 'corrected_latency_ms', errors: 0 });
  });
});
