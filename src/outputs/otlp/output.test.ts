import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { IntervalPercentiles, TimelineLine } from '../../domain/timeline.js';
import type { ClosedSecond, OutputContext } from '../output.js';
import { PROM_METRICS as METRIC_NAMES } from '../prometheus/series.js';
import { metricsEndpoint, otlpOutput } from './output.js';
import { lastPoints, startOtlpReceiver, type OtlpReceiver } from './test-support/otlp-receiver.js';

const ctx: OutputContext = { runId: 'run-1', suite: 'demo', shard: '2/3', models: ['m-a', 'm-b'] };
const T0 = 1_790_000_000;

function percentiles(p50Ms: number): IntervalPercentiles {
  return { count: 2, p50: p50Ms, p95: p50Ms * 2, p99: p50Ms * 3, max: p50Ms * 3 };
}

function second(i: number, models: ClosedSecond['models'], ttfcP50Ms: number | null): ClosedSecond {
  const line: TimelineLine = {
    t: T0 + i, offset_ms: i * 1000 - 250, target_rate: 3, starts: 3, dropped: i === 1 ? 1 : 0, completed: 0, ok: 0,
    in_flight: 2 + i, in_flight_max: 4, errors: {}, status_429: 0, passed: 0, failed: 0, credit_units: 0, credits_used: 0,
    ttfc_ms: ttfcP50Ms === null ? null : percentiles(ttfcP50Ms), latency_ms: ttfcP50Ms === null ? null : percentiles(ttfcP50Ms * 4),
    corrected_latency_ms: null, inter_chunk_ms: null, loop_delay_p99_ms: null, hdr: {},
  };
  return { line, models };
}

const SECONDS = [
  second(0, { 'm-a': { outcomes: { ok: 2 }, credit_units: 150 } }, 120),
  second(1, {}, null),
  second(2, { 'm-a': { outcomes: { ok: 1, timeout: 1 }, credit_units: 1 }, 'm-b': { outcomes: { http_error: 3 }, credit_units: 0 } }, 80),
];

let receiver: OtlpReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

describe('otlp output', () => {
  it('pushes each closed second as OTLP protobuf: cumulative counters, quantile gauges, the run labels', async () => {
    receiver = await startOtlpReceiver();
    const output = otlpOutput(new URL(receiver.url), ctx);
    output.start();
    for (const s of SECONDS) output.second(s);
    const report = await output.stop(10_000);

    expect(report).toMatchObject({ kind: 'otlp', sent_batches: 3, dropped_batches: 0, errors: 0, url: `${receiver.url}/v1/metrics` });
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.requests.every((r) => r.path === '/v1/metrics' && r.contentType === 'application/x-protobuf')).toBe(true);
    expect(report?.sent_samples).toBe(receiver.requests.reduce((n, r) => n + r.points.length, 0));
    expect(receiver.requests[0]!.resource).toMatchObject({ 'service.name': 'kbbench', 'service.instance.id': 'run-1/2/3' });

    // The prometheus-rw output's metrics, under its names: counters as monotonic sums, the rest as gauges.
    const names = new Set(receiver.requests.flatMap((r) => r.points.map((p) => p.metric)));
    expect([...names].every((name) => (Object.values(METRIC_NAMES) as string[]).includes(name))).toBe(true);
    for (const name of [METRIC_NAMES.requests, METRIC_NAMES.starts, METRIC_NAMES.dropped, METRIC_NAMES.credits, METRIC_NAMES.inFlight, METRIC_NAMES.ttfc, METRIC_NAMES.latency]) expect(names).toContain(name);
    const points = receiver.requests.flatMap((r) => r.points);
    expect(points.every((p) => (p.metric.endsWith('_total') ? p.type === 'sum' && p.monotonic : p.type === 'gauge'))).toBe(true);

    const requests = lastPoints(receiver.requests, METRIC_NAMES.requests);
    expect(requests.reduce((n, p) => n + p.value, 0)).toBe(7);
    const byKey = Object.fromEntries(requests.map((p) => [`${p.attributes.model}/${p.attributes.outcome}`, p.value]));
    expect(byKey).toEqual({ 'm-a/ok': 3, 'm-a/timeout': 1, 'm-b/ok': 0, 'm-b/http_error': 3 });
    for (const p of requests) {
      expect(p).toMatchObject({ type: 'sum', monotonic: true, temporality: 'AGGREGATION_TEMPORALITY_CUMULATIVE' });
      expect(p.attributes).toMatchObject({ run_id: 'run-1', suite: 'demo', shard: '2/3' });
      // Stamped with the second's end, from the run's start (not the moment of collection).
      expect(p.timeUnixNano).toBe(`${T0 + 3}000000000`);
      expect(p.startTimeUnixNano).toBe(`${T0}250000000`);
    }
    expect(lastPoints(receiver.requests, METRIC_NAMES.starts).map((p) => p.value)).toEqual([9]);
    expect(lastPoints(receiver.requests, METRIC_NAMES.dropped).map((p) => p.value)).toEqual([1]);
    const credits = Object.fromEntries(lastPoints(receiver.requests, METRIC_NAMES.credits).map((p) => [p.attributes.model, p.value]));
    expect(credits).toEqual({ 'm-a': 0.00151, 'm-b': 0 });

    // Gauges hold only their own second: none for TTFC in the quiet second, none repeated.
    const ttfcOf = (i: number) => receiver!.requests[i]!.points.filter((p) => p.metric === METRIC_NAMES.ttfc);
    expect(ttfcOf(1)).toEqual([]);
    expect(Object.fromEntries(ttfcOf(2).map((p) => [p.attributes.quantile, p.value]))).toEqual({ '0.5': 0.08, '0.95': 0.16, '0.99': 0.24 });
    expect(ttfcOf(2).every((p) => p.type === 'gauge' && p.unit === 's' && p.timeUnixNano === `${T0 + 3}000000000`)).toBe(true);
    expect(receiver.requests.map((r) => r.points.find((p) => p.metric === METRIC_NAMES.inFlight)?.value)).toEqual([2, 3, 4]);
    const latency = receiver.requests[0]!.points.filter((p) => p.metric === METRIC_NAMES.latency);
    expect(latency.map((p) => p.value).sort()).toEqual([0.48, 0.96, 1.44]);
  });

  it('an endpoint that refuses every export costs the run nothing but dropped exports, counted', async () => {
    receiver = await startOtlpReceiver();
    receiver.failWith(400);
    const output = otlpOutput(new URL(receiver.url), ctx);
    output.start();
    for (const s of SECONDS) expect(() => output.second(s)).not.toThrow();
    const report = await output.stop(10_000);
    expect(report).toMatchObject({ sent_batches: 0, dropped_batches: 3, errors: 3 });
    expect(report?.first_error).toMatch(/Bad Request|400/);
    expect(receiver.refused).toBe(3);
  });

  it('a dead endpoint: refused exports fail at once, the queue is bounded, every export is counted', async () => {
    const port = await closedPort();
    const output = otlpOutput(new URL(`http://127.0.0.1:${port}`), ctx, { maxBatches: 2 });
    output.start();
    for (let i = 0; i < 6; i += 1) output.second(second(i, { 'm-a': { outcomes: { ok: 1 }, credit_units: 0 } }, 10));
    const report = await output.stop(10_000);
    expect(report?.sent_batches).toBe(0);
    expect(report?.dropped_batches).toBe(6);
    // Refused at once and not retried (agent.ts): stop had nothing left to wait for.
    expect(report?.errors).toBeGreaterThan(0);
    expect(report?.first_error).toMatch(/ECONNREFUSED/);
  });

  it('takes a base URL or the full metrics path, and keeps a password out of what it reports', () => {
    expect(metricsEndpoint(new URL('http://collector:4318')).href).toBe('http://collector:4318/v1/metrics');
    expect(metricsEndpoint(new URL('http://collector:4318/otlp/')).href).toBe('http://collector:4318/otlp/v1/metrics');
    expect(metricsEndpoint(new URL('http://u:secret@collector:4318/v1/metrics')).href).toBe('http://collector:4318/v1/metrics');
  });
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
