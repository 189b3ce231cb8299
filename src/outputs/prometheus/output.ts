// `--output prometheus-rw=URL`: every closed second POSTed to a Prometheus remote-write endpoint
// (Prometheus with --web.enable-remote-write-receiver, Mimir, Thanos, VictoriaMetrics, Grafana Cloud).
// A user and password in the URL are sent as basic auth, never reported.
import { BatchQueue, displayUrl } from '../batch-queue.js';
import type { ClosedSecond, Output, OutputContext } from '../output.js';
import { encodeWriteRequest, REMOTE_WRITE_HEADERS, type PromSeries } from './remote-write.js';
import { PromSeriesBuilder } from './series.js';

export function prometheusRemoteWrite(url: URL, ctx: OutputContext): Output {
  const builder = new PromSeriesBuilder(ctx);
  const endpoint = new URL(url.href);
  const auth = endpoint.username !== '' ? `Basic ${Buffer.from(`${decodeURIComponent(endpoint.username)}:${decodeURIComponent(endpoint.password)}`).toString('base64')}` : null;
  endpoint.username = '';
  endpoint.password = '';
  const queue = new BatchQueue<PromSeries[]>({
    kind: 'prometheus-rw',
    url: displayUrl(url),
    samplesOf: (batch) => batch.length,
    async send(batch, signal) {
      const response = await fetch(endpoint, {
        method: 'POST', signal, body: encodeWriteRequest(batch),
        headers: { ...REMOTE_WRITE_HEADERS, ...(auth ? { authorization: auth } : {}) },
      });
      const text = response.ok ? '' : (await response.text().catch(() => '')).slice(0, 200);
      if (!response.ok) throw new Error(`HTTP ${response.status}${text ? `: ${text.trim()}` : ''}`);
      await response.body?.cancel();
    },
  });
  return {
    kind: 'prometheus-rw',
    start: () => undefined,
    second: (second: ClosedSecond) => queue.push(builder.of(second)),
    stop: (deadlineMs: number) => queue.stop(deadlineMs),
  };
}
