// A raw node:http server that speaks enough of the knowledge-base interface for the whole `kbbench run`
// process and its peers (autocannon, artillery, promptfoo, a bare undici loop), as a child process on
// 127.0.0.1:0. It prints one JSON line with its port when ready.
//   GET  /api/boards, /api/chats          -> the one board and chat (kbbench lists boards before a run)
//   POST /api/conversation/new          -> a conversation id (conv-N); POST /api/conversation/conv-N is answered as below
//   POST /api/conversation?board_id&chat_id
//     mode instant: JSON answer {text, credits_used, credits_remaining} at once, or, when the body asks
//       for streaming ("true"/"active"), the whole AI SDK UI-message SSE stream in one write (20 deltas,
//       plus the usage chunk after finish when include_usage is on).
//     mode stamped: streams only. Headers and the start frame at once; the first text chunk
//       FIRST_MS after the request arrived, then the rest GAP_MS apart on an absolute schedule, CHUNKS
//       text chunks in all. The first delta's text is `t=<ns> r=<seq> word0 `: the CLOCK_MONOTONIC
//       time (process.hrtime.bigint(), the same clock in every process of this machine) taken just
//       before that chunk is written, and the server's sequence number of the request. Prompts that
//       start with "warm" get the whole stream in one write after WARM_MS (300 ms), so that N warm-up
//       requests sent at once open N connections.
//   GET  /stats   -> counts since the last /stats?reset=1 (answers by kind, 404s, connections, and
//                    first_ns/last_ns: CLOCK_MONOTONIC arrival of the first and last POST)
//   GET  /log     -> stamped mode: one record per stamped request since the last /log, then cleared:
//                    { seq, prompt, recv_ns, first_ns, end_ns, reused } (reused: not the socket's first request)
// Streaming answers use the header x-vercel-ai-ui-message-stream: v1, which kbbench detects as ui-sse.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { setTimeout } from 'node:timers';

const mode = process.argv[2] === 'stamped' ? 'stamped' : 'instant';
const FIRST_MS = Number(process.env.KB_SERVER_FIRST_MS ?? 500);
const GAP_MS = Number(process.env.KB_SERVER_GAP_MS ?? 50);
const WARM_MS = Number(process.env.KB_SERVER_WARM_MS ?? 300);
const CHUNKS = 20;
const ANSWER_WORDS = Array.from({ length: CHUNKS }, (_, i) => `word${i} `);
const ANSWER_TEXT = ANSWER_WORDS.join('');
const CREDITS_USED = 0.001;

const frame = (payload) => `data: ${JSON.stringify(payload)}\n\n`;
const delta = (text) => frame({ type: 'text-delta', id: 't', delta: text });
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1' };
const START = frame({ type: 'start' });
const TEXT_START = frame({ type: 'text-start', id: 't' });
const END = frame({ type: 'text-end', id: 't' }) + frame({ type: 'finish' });
const USAGE = frame({ type: 'usage', credits_used: CREDITS_USED });
const DONE = 'data: [DONE]\n\n';
const instantBody = (usage) => Buffer.from(START + TEXT_START + ANSWER_WORDS.map(delta).join('') + END + (usage ? USAGE : '') + DONE);
const INSTANT_STREAM = { true: instantBody(true), false: instantBody(false) };
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const BOARDS = Buffer.from(JSON.stringify({ data: [{ id: 'bench-board', name: 'Bench board' }] }));
const CHATS = Buffer.from(JSON.stringify({ data: [{ id: 'bench-chat', name: 'Bench chat', conversations: [] }] }));

const on = (value) => value === true || value === 'true' || value === 'active';
const freshStats = () => ({ json: 0, stream: 0, stamped: 0, warm: 0, not_found: 0, bad_body: 0, connections: 0, first_ns: null, last_ns: null });
let stats = freshStats();
let log = [];
let seq = 0;
let remaining = 1_000_000;
const socketRequests = new WeakMap();

function sendJson(res, status, buffer) {
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': String(buffer.length) });
  res.end(buffer);
}

function answerJson(res) {
  remaining = Math.max(0, remaining - CREDITS_USED);
  sendJson(res, 200, Buffer.from(JSON.stringify({ text: ANSWER_TEXT, credits_used: CREDITS_USED, credits_remaining: Number(remaining.toFixed(5)) })));
}

function answerInstantStream(res, usage) {
  const body = INSTANT_STREAM[usage];
  res.writeHead(200, { ...SSE_HEADERS, 'content-length': String(body.length) });
  res.end(body);
}

/** Chunk i at recv + FIRST_MS + i * GAP_MS (recv in ms of CLOCK_MONOTONIC), so timer lateness does not add up. */
function answerStamped(res, record, usage) {
  res.writeHead(200, SSE_HEADERS);
  res.write(START);
  const recvMs = Number(record.recv_ns) / 1e6;
  const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
  const send = (i) => {
    if (res.destroyed) return;
    if (i === 0) {
      const at = process.hrtime.bigint();
      record.first_ns = at;
      res.write(TEXT_START + delta(`t=${at} r=${record.seq} ${ANSWER_WORDS[0]}`));
    } else {
      res.write(delta(ANSWER_WORDS[i]));
    }
    if (i + 1 < CHUNKS) {
      setTimeout(() => send(i + 1), Math.max(0, recvMs + FIRST_MS + (i + 1) * GAP_MS - nowMs()));
      return;
    }
    record.end_ns = process.hrtime.bigint();
    res.end(END + (usage ? USAGE : '') + DONE);
  };
  setTimeout(() => send(0), Math.max(0, recvMs + FIRST_MS - nowMs()));
}

const server = createServer({ noDelay: true, keepAliveTimeout: 120_000, requestTimeout: 0, headersTimeout: 60_000 }, (req, res) => {
  const recv = process.hrtime.bigint();
  const n = (socketRequests.get(req.socket) ?? 0) + 1;
  socketRequests.set(req.socket, n);
  const path = req.url.split('?')[0];
  if (req.method === 'GET') {
    if (path === '/api/boards') return sendJson(res, 200, BOARDS);
    if (path === '/api/chats') return sendJson(res, 200, CHATS);
    if (path === '/stats') {
      const body = Buffer.from(JSON.stringify(stats));
      if (req.url.includes('reset=1')) stats = freshStats();
      return sendJson(res, 200, body);
    }
    if (path === '/log') {
      const body = Buffer.from(JSON.stringify(log, (_, v) => (typeof v === 'bigint' ? v.toString() : v)));
      log = [];
      return sendJson(res, 200, body);
    }
  }
  // A conversation (a traffic log's thread): created with a fixed answer, its turns answered as one-time questions are.
  if (req.method === 'POST' && path === '/api/conversation/new') {
    stats.created = (stats.created ?? 0) + 1;
    req.resume();
    return sendJson(res, 200, Buffer.from(JSON.stringify({ conversationId: `conv-${stats.created}`, name: 'API Conversation - bench', createdAt: '2026-01-01T00:00:00.000Z', boardId: 'bench-board', chatId: 'bench-chat' })));
  }
  if (req.method !== 'POST' || (path !== '/api/conversation' && !path.startsWith('/api/conversation/conv-'))) {
    stats.not_found++;
    return sendJson(res, 404, Buffer.from('{"error":"Not Found"}'));
  }
  // The span of answered requests: the arrival of the first and of the last since the reset.
  stats.first_ns ??= String(recv);
  stats.last_ns = String(recv);
  const parts = [];
  req.on('data', (chunk) => parts.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      stats.bad_body++;
      return sendJson(res, 400, Buffer.from('{"error":"Validation failed","message":"body is not JSON","details":{}}'));
    }
    const streaming = on(body.streaming);
    const usage = streaming && on(body.include_usage);
    const prompt = String(body.prompt ?? '');
    if (mode === 'stamped' && prompt.startsWith('warm')) {
      // Held WARM_MS so that N warm-up requests sent at once open N connections.
      stats.warm++;
      setTimeout(() => (streaming ? answerInstantStream(res, usage) : answerJson(res)), WARM_MS);
      return;
    }
    if (mode === 'instant') {
      if (!streaming) {
        stats.json++;
        return answerJson(res);
      }
      stats.stream++;
      return answerInstantStream(res, usage);
    }
    stats.stamped++;
    const record = { seq: ++seq, prompt, recv_ns: recv, first_ns: null, end_ns: null, reused: n > 1 };
    log.push(record);
    answerStamped(res, record, usage);
  });
});
server.on('connection', () => stats.connections++);

// A deep accept backlog: 2,000 clients connect at once in the streams benchmark.
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  console.log(JSON.stringify({ port: server.address().port, mode, firstMs: FIRST_MS, gapMs: GAP_MS, chunks: CHUNKS, warmMs: WARM_MS }));
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
