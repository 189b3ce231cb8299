// `--output otlp=http://HOST:4318`: the run's live metrics through the OpenTelemetry JS SDK, pushed as
// OTLP/HTTP protobuf (the official exporter) once per closed second. Same names and labels as the
// prometheus-rw output, so one dashboard reads either (through a collector or Prometheus's OTLP receiver).
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BatchQueue, displayUrl } from '../batch-queue.js';
import type { ClosedSecond, Output, OutputContext, OutputReport } from '../output.js';
import { createExportAgents } from './agent.js';
import { createInstruments } from './instruments.js';
import { pointsOf, SecondReader } from './second-reader.js';

export interface OtlpOutputOptions {
  /** Collections waiting at most (each is the run's totals, so a dropped one loses no count). */
  maxBatches?: number;
  /** One export's time limit, its retries included (the exporter's own, and the queue's). */
  timeoutMs?: number;
}

/** The metrics endpoint: a base URL (the OTLP convention, `:4318`) gains `/v1/metrics`; a full one stays. */
export function metricsEndpoint(url: URL): URL {
  const endpoint = new URL(url.href);
  endpoint.username = '';
  endpoint.password = '';
  if (!endpoint.pathname.endsWith('/v1/metrics')) endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/v1/metrics`;
  return endpoint;
}

/** `http://user:secret@host:4318` sends Basic auth (OTEL_EXPORTER_OTLP_HEADERS also applies, read by the exporter). */
function authHeaders(url: URL): Record<string, string> {
  if (url.username === '' && url.password === '') return {};
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

export function otlpOutput(url: URL, ctx: OutputContext, options: OtlpOutputOptions = {}): Output {
  const endpoint = metricsEndpoint(url);
  const timeoutMs = options.timeoutMs ?? 5000;
  const agents = createExportAgents();
  const exporter = new OTLPMetricExporter({ url: endpoint.href, headers: authHeaders(url), timeoutMillis: timeoutMs, httpAgentOptions: agents.factory });
  const reader = new SecondReader();
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': 'kbbench', 'service.instance.id': `${ctx.runId}/${ctx.shard}` }),
    readers: [reader],
  });
  const instruments = createInstruments(provider.getMeter('kbbench'), ctx);
  const queue = new BatchQueue<ResourceMetrics>({
    kind: 'otlp',
    url: displayUrl(endpoint),
    send: (batch, signal) => exportOnce(exporter, batch, signal),
    samplesOf: pointsOf,
    timeoutMs,
    ...(options.maxBatches !== undefined ? { maxBatches: options.maxBatches } : {}),
  });
  // Seconds are recorded and collected one after another: a collection awaits (microtasks only, no
  // I/O) before it reads the instruments, so the next second must not be recorded in between.
  let collecting: Promise<void> = Promise.resolve();
  let lost = 0;
  return {
    kind: 'otlp',
    start(): void {
      // Nothing to send yet: the builder's zero series go out with the first second.
    },
    second(second: ClosedSecond): void {
      collecting = collecting.then(async () => {
        instruments.record(second);
        queue.push(await reader.collectSecond(second.line));
      }).catch(() => {
        // A collection that failed is a second not sent; the next carries the totals.
        lost += 1;
      });
    },
    async stop(deadlineMs: number): Promise<OutputReport> {
      await collecting;
      const report = await queue.stop(deadlineMs);
      // An export cut by the deadline ends in the background, holding nothing open (agent.ts).
      agents.stop();
      void provider.shutdown().catch(() => undefined);
      void exporter.shutdown().catch(() => undefined);
      return { ...report, dropped_batches: report.dropped_batches + lost };
    },
  };
}

/** One export through the SDK's exporter; the queue's signal gives up waiting (the request times out by itself). */
function exportOnce(exporter: OTLPMetricExporter, batch: ResourceMetrics, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('export cancelled'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    exporter.export(batch, (result) => {
      signal.removeEventListener('abort', onAbort);
      if (result.code === ExportResultCode.SUCCESS) resolve();
      else reject(result.error ?? new Error('OTLP export failed'));
    });
  });
}
