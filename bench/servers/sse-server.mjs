// A raw node:http SSE server for the benchmarks, run as a child process on 127.0.0.1:0. It speaks the
// AI SDK UI-message stream kbbench detects, with delays it timestamps itself (the "true" delays).
//   node sse-server.mjs timed   -> first text chunk TTFC_MS after the request, then CHUNKS chunks GAP_MS apart
//   node sse-server.mjs instant -> the whole stream in one write, at once
// GET /truth answers the server-side timings recorded since the last /truth, keyed by the prompt.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';

export const TTFC_MS = 50;
export const CHUNKS = 20;
export const GAP_MS = 10;

const mode = process.argv[2] === 'instant' ? 'instant' : 'timed';
const frame = (payload) => `data: ${JSON.stringify(payload)}\n\n`;
const delta = (i) => frame({ type: 'text-delta', id: 't', delta: `word${i} ` });
const HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1' };
const START = frame({ type: 'start' });
const TEXT_START = frame({ type: 'text-start', id: 't' });
const END = frame({ type: 'text-end', id: 't' }) + frame({ type: 'finish' }) + 'data: [DONE]\n\n';
const INSTANT_BODY = Buffer.from(START + TEXT_START + Array.from({ length: CHUNKS }, (_, i) => delta(i)).join('') + END);

/** prompt -> { ttfcMs, latencyMs } measured on this server's monotonic clock. */
let truth = {};

function promptOf(body) {
  try {
    return String(JSON.parse(body).prompt ?? '');
  } catch {
    return '';
  }
}

/** Writes frame i at t0 + TTFC_MS + i * GAP_MS: an absolute schedule, so timer lateness does not add up. */
function streamTimed(res, t0, prompt) {
  res.writeHead(200, HEADERS);
  res.write(START);
  let firstAt = 0;
  const send = (i) => {
    if (res.destroyed) return;
    const now = performance.now();
    if (i === 0) firstAt = now;
    res.write(i === 0 ? TEXT_START + delta(0) : delta(i));
    if (i + 1 < CHUNKS) {
      setTimeout(() => send(i + 1), Math.max(0, t0 + TTFC_MS + (i + 1) * GAP_MS - performance.now()));
      return;
    }
    const finishAt = performance.now();
    res.end(END);
    if (prompt) truth[prompt] = { ttfcMs: firstAt - t0, latencyMs: finishAt - t0 };
  };
  setTimeout(() => send(0), Math.max(0, t0 + TTFC_MS - performance.now()));
}

const server = createServer({ noDelay: true, keepAliveTimeout: 60_000 }, (req, res) => {
  const t0 = performance.now();
  if (req.url === '/truth') {
    const body = JSON.stringify(truth);
    truth = {};
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (mode === 'instant') {
      res.writeHead(200, { ...HEADERS, 'content-length': String(INSTANT_BODY.length) });
      res.end(INSTANT_BODY);
      return;
    }
    streamTimed(res, t0, promptOf(body));
  });
});

server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: server.address().port, mode, ttfcMs: TTFC_MS, chunks: CHUNKS, gapMs: GAP_MS }));
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
