// `--output otlp=URL`: a load run's live metrics reach an OTLP/HTTP receiver on 127.0.0.1 while the run
// goes on, decoded there with the official opentelemetry-proto definitions; the request counts add up
// to the run's result lines, with the names and labels the prometheus-rw output uses; and an endpoint
// that is down costs the run nothing but dropped exports, which it reports. Counts, not times.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { OutputReport } from '../src/domain/output.js';
import { PROM_METRICS } from '../src/outputs/prometheus/series.js';
import { lastPoints, startOtlpReceiver, type OtlpReceiver } from '../src/outputs/otlp/test-support/otlp-receiver.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

interface RunJson { run_id: string }
interface SummaryJson { status: string; verdict: string; outputs?: OutputReport[] }

const LOAD = ['--models', 'gpt-4o,gpt-4o-mini', '--rate', '8', '--duration', '3s', '--quiet'];

describe('otlp output (end to end)', () => {
  // The runs and the receiver in this process; `kbbench serve` in one of its own (sharing the run's CPU,
  // it would hold starts back past a second on a crowded machine: dropped, and the gate fails the run).
  let serve: ServeHandle;
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0.2']);
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await serve.stop();
  });

  it('sends every closed second while the run goes on; the decoded request counts sum to the result lines', async () => {
    const out = join(tempDir(), 'run');
    const resultsFile = join(out, 'results.ndjson');
    let resultsAtFirstExport: number | null = null;
    let whileRunning = 0;
    let running = true;
    // Exports that arrived while the run still ran (checked on each receipt, not on a clock).
    receiver.onRequest = () => {
      if (running) whileRunning += 1;
      resultsAtFirstExport ??= existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8').split('\n').filter(Boolean).length : 0;
    };
    const r = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, ...LOAD, '--output', `otlp=${receiver.url}`], {
      env: { KBBENCH_API_KEY: serve.key },
    });
    running = false;
    const atExit = receiver.requests.length;
    receiver.onRequest = null;
    expect(r.code, r.stderr).toBe(0);
    const results = readNdjson<Sample>(join(out, 'results.ndjson'));
    const timeline = readNdjson(join(out, 'timeline.ndjson'));
    const runId = readJson<RunJson>(join(out, 'run.json')).run_id;
    const summary = readJson<SummaryJson>(join(out, 'summary.json'));

    // One export per closed second, each in while the run went on (the last ones during its stop).
    expect(receiver.requests).toHaveLength(timeline.length);
    expect(atExit).toBe(timeline.length);
    expect(whileRunning).toBe(timeline.length);
    // Live: the first second's metrics arrived while most requests were still to be made.
    expect(resultsAtFirstExport).toBeLessThan(results.length / 2);
    expect(receiver.requests.every((q) => q.path === '/v1/metrics' && q.contentType === 'application/x-protobuf')).toBe(true);
    const report = summary.outputs?.find((o) => o.kind === 'otlp');
    expect(report).toMatchObject({ sent_batches: timeline.length, dropped_batches: 0, errors: 0 });

    const requests = lastPoints(receiver.requests, PROM_METRICS.requests);
    expect(requests.reduce((n, p) => n + p.value, 0)).toBe(results.length);
    for (const model of ['gpt-4o', 'gpt-4o-mini']) {
      const ofModel = requests.filter((p) => p.attributes.model === model).reduce((n, p) => n + p.value, 0);
      expect(ofModel, model).toBe(results.filter((s) => s.model === model).length);
    }
    for (const p of receiver.requests.flatMap((q) => q.points)) {
      expect(p.attributes).toMatchObject({ run_id: runId, suite: 'small', shard: '1/1' });
      expect(Object.values(PROM_METRICS) as string[]).toContain(p.metric);
    }
    const starts = lastPoints(receiver.requests, PROM_METRICS.starts)[0]!.value;
    expect(starts).toBe(timeline.reduce((n, line) => n + (line.starts as number), 0));
    // The TTFC quantiles are the timeline's, second by second.
    const ttfcLines = timeline.filter((line) => line.ttfc_ms !== null);
    expect(ttfcLines.length).toBeGreaterThan(0);
    for (const line of ttfcLines) {
      const at = `${(line.t as number) + 1}000000000`;
      const p95 = receiver.requests.flatMap((q) => q.points).find((p) => p.metric === PROM_METRICS.ttfc && p.attributes.quantile === '0.95' && p.timeUnixNano === at);
      // The same figure to the microsecond (seconds on the wire, ms in the file: float division apart).
      expect((p95?.value ?? Number.NaN) * 1000, `second ${line.t as number}`).toBeCloseTo((line.ttfc_ms as { p95: number }).p95, 3);
    }
  });

  it('an endpoint that is down costs the run nothing: the same results, the exports reported dropped', async () => {
    const port = await closedPort();
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, ...LOAD, '--output', `otlp=http://127.0.0.1:${port}`], {
      env: { KBBENCH_API_KEY: serve.key },
    });
    expect(r.code, r.stderr).toBe(0);
    const summary = readJson<SummaryJson>(join(out, 'summary.json'));
    expect(summary).toMatchObject({ status: 'completed', verdict: 'pass' });
    const timeline = readNdjson(join(out, 'timeline.ndjson'));
    const report = summary.outputs?.find((o) => o.kind === 'otlp');
    expect(report?.sent_batches).toBe(0);
    expect(report?.dropped_batches).toBe(timeline.length);
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
