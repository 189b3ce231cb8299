import { describe, expect, it } from 'vitest';
import type { TimelineLine } from '../../domain/timeline.js';
import { decodeWriteRequest, encodeWriteRequest } from './remote-write.js';
import { PromSeriesBuilder } from './series.js';

const line = (t: number, over: Partial<TimelineLine> = {}): TimelineLine => ({
  t, offset_ms: 0, target_rate: 2, starts: 2, dropped: 0, completed: 1, ok: 1, in_flight: 1, in_flight_max: 2, errors: {}, status_429: 0,
  passed: 1, failed: 0, credit_units: 100, credits_used: 0.001, ttfc_ms: { count: 1, p50: 123.4, p95: 200, p99: 250, max: 250 },
  latency_ms: null, corrected_latency_ms: null, inter_chunk_ms: null, loop_delay_p99_ms: null, hdr: {}, ...over,
});

describe('PromSeriesBuilder', () => {
  const ctx = { runId: 'r1', suite: 'demo', shard: '1/2', models: ['m'] };
  it('sends counters as running totals with the run labels, sorted, stamped with the second', () => {
    const b = new PromSeriesBuilder(ctx);
    b.of({ line: line(100, { good: 1 }), models: { m: { outcomes: { ok: 1 }, credit_units: 100 } } });
    const series = b.of({ line: line(101, { errors: { E_TIMEOUT: 1 }, good: 0 }), models: { m: { outcomes: { ok: 1, timeout: 1 }, credit_units: 50 } } });
    const find = (name: string, extra: Record<string, string> = {}) => series.find((s) => s.labels.some((l) => l.name === '__name__' && l.value === name) && Object.entries(extra).every(([k, v]) => s.labels.some((l) => l.name === k && l.value === v)));
    expect(find('kbbench_requests_total', { outcome: 'ok' })?.samples).toEqual([{ value: 2, timestamp: 101_000 }]);
    expect(find('kbbench_requests_total', { outcome: 'timeout' })?.samples[0]?.value).toBe(1);
    expect(find('kbbench_credits_used_total')?.samples[0]?.value).toBe(0.0015);
    expect(find('kbbench_starts_total')?.samples[0]?.value).toBe(4);
    // Goodput as a counter of good answers (rate() gives good answers per second): 1 then none.
    expect(find('kbbench_good_answers_total')?.samples[0]?.value).toBe(1);
    expect(find('kbbench_errors_total', { kind: 'E_TIMEOUT' })?.samples[0]?.value).toBe(1);
    expect(find('kbbench_ttfc_seconds', { quantile: '0.5' })?.samples[0]?.value).toBe(0.1234);
    expect(find('kbbench_latency_seconds')).toBeUndefined();
    const names = find('kbbench_in_flight')!.labels.map((l) => l.name);
    expect(names).toEqual(['__name__', 'run_id', 'shard', 'suite']);
  });

  it('round-trips through protobuf and snappy', () => {
    const series = new PromSeriesBuilder(ctx).of({ line: line(1_700_000_000), models: {} });
    expect(decodeWriteRequest(encodeWriteRequest(series))).toEqual(series);
  });
});
