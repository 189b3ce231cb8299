// A loopback OTLP/HTTP metrics receiver for tests: a real HTTP server on 127.0.0.1 that decodes each
// request with the official opentelemetry-proto definitions (test/fixtures/otlp-proto, v1.11.0, loaded
// with protobufjs), so what the exporter sent is checked against the spec, not against our own code.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

// src/outputs/otlp/test-support and dist/outputs/otlp/test-support are both four levels below the root.
const PROTO_DIR = fileURLToPath(new URL('../../../../test/fixtures/otlp-proto/', import.meta.url));
const SERVICE = 'opentelemetry/proto/collector/metrics/v1/metrics_service.proto';

function loadTypes(): { request: protobuf.Type; response: protobuf.Type } {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync(SERVICE);
  return {
    request: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
    response: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse'),
  };
}

/** One data point, flattened: the metric it belongs to, its attributes as strings, its value. */
export interface ReceivedPoint {
  metric: string;
  unit: string;
  /** 'sum' (with its temporality and monotonicity) or 'gauge'. */
  type: 'sum' | 'gauge' | 'other';
  temporality?: string;
  monotonic?: boolean;
  attributes: Record<string, string>;
  value: number;
  startTimeUnixNano: string;
  timeUnixNano: string;
}

export interface ReceivedRequest {
  path: string;
  contentType: string;
  resource: Record<string, string>;
  points: ReceivedPoint[];
}

export interface OtlpReceiver {
  /** The base URL, as a user gives it to `--output otlp=…`. */
  url: string;
  requests: ReceivedRequest[];
  /** Called after each request is decoded and stored. */
  onRequest: (() => void) | null;
  /** Requests answered with an error status (see `failWith`). */
  refused: number;
  /** From now on answer every request with this status (null: accept again). */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value?: AnyValue };
const attributesOf = (list: KeyValue[] | undefined): Record<string, string> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, String(kv.value?.stringValue ?? kv.value?.intValue ?? kv.value?.doubleValue ?? kv.value?.boolValue ?? '')]));

/** The decoded request (protobufjs toObject: int64 as strings, enums by name), flattened to points. */
function flatten(decoded: Record<string, unknown>, path: string, contentType: string): ReceivedRequest {
  const points: ReceivedPoint[] = [];
  let resource: Record<string, string> = {};
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  for (const rm of (decoded.resourceMetrics ?? []) as any[]) {
    resource = attributesOf(rm.resource?.attributes);
    for (const sm of rm.scopeMetrics ?? []) {
      for (const metric of sm.metrics ?? []) {
        const data = metric.sum ?? metric.gauge;
        const type = metric.sum ? 'sum' : metric.gauge ? 'gauge' : 'other';
        for (const p of data?.dataPoints ?? []) {
          points.push({
            metric: metric.name, unit: metric.unit ?? '', type,
            ...(metric.sum ? { temporality: metric.sum.aggregationTemporality, monotonic: metric.sum.isMonotonic === true } : {}),
            attributes: attributesOf(p.attributes),
            value: p.asDouble !== undefined ? Number(p.asDouble) : Number(p.asInt ?? 0),
            startTimeUnixNano: String(p.startTimeUnixNano ?? '0'), timeUnixNano: String(p.timeUnixNano ?? '0'),
          });
        }
      }
    }
  }
  return { path, contentType, resource, points };
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const types = loadTypes();
  const requests: ReceivedRequest[] = [];
  let failing: number | null = null;
  const receiver: OtlpReceiver = {
    url: '', requests, refused: 0, onRequest: null,
    failWith(status) {
      failing = status;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      if (failing !== null) {
        receiver.refused += 1;
        res.writeHead(failing).end();
        return;
      }
      const decoded = types.request.toObject(types.request.decode(body), { longs: String, enums: String, arrays: true });
      requests.push(flatten(decoded, req.url ?? '', String(req.headers['content-type'] ?? '')));
      receiver.onRequest?.();
      const answer = types.response.encode(types.response.create({})).finish();
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(answer));
    }, () => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** The points of the last request that carried `metric` (cumulative counters: the run's totals). */
export function lastPoints(requests: readonly ReceivedRequest[], metric: string): ReceivedPoint[] {
  for (let i = requests.length - 1; i >= 0; i -= 1) {
    const points = requests[i]!.points.filter((p) => p.metric === metric);
    if (points.length > 0) return points;
  }
  return [];
}
