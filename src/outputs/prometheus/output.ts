// `--output prometheus-rw=URL`: every closed second POSTed to a Prometheus remote-write endpoint
// (Prometheus with --web.enable-remote-write-receiver, Mimir, Thanos, VictoriaMetrics, Grafana Cloud).
// A user and password in the URL are sent as basic auth, never reported.
import { readCappedText } from '../../client/capped-body.js';
import { shownUrl } from '../../client/redact.js';
import { BatchQueue, displayUrl } from '../batch-queue.js';
import type { ClosedSecond, Output, OutputContext } from '../output.js';
import { encodeWriteRequest, REMOTE_WRITE_HEADERS, type PromSeries } from './remote-write.js';
import { PromSeriesBuilder } from './series.js';

/** An error body is read this far, for the 200 characters a report keeps. */
const ERROR_WORDS_BYTES = 4096;

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
      // A redirect is not followed: fetch would turn the POST into an empty GET to wherever it points.
      const response = await fetch(endpoint, {
        method: 'POST', signal, body: encodeWriteRequest(batch), redirect: 'manual',
        headers: { ...REMOTE_WRITE_HEADERS, ...(auth ? { authorization: auth } : {}) },
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}: a redirect (to ${shownUrl(response.headers.get('location') ?? '?')}), not followed: the batch is dropped`);
      }
      // Only an error body's first words are kept: the rest is never read (a body of gigabytes costs 4 KiB).
      const text = response.ok ? '' : (await readCappedText(response, ERROR_WORDS_BYTES, 'the remote-write endpoint', true).catch(() => '')).trim().slice(0, 200);
      if (!response.ok) throw new Error(`HTTP ${response.status}${text ? `: ${text}` : ''}`);
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
