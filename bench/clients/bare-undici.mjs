// The bare loop the peer benchmarks set beside the whole `kbbench run` process: one undici Pool to the
// origin, N concurrent loops sending the same requests kbbench sends (POST /api/conversation, the same
// headers and JSON body) and reading each body, in a process of its own. Nothing is decoded or stored
// beyond what a mode needs. Prints one JSON line at the end.
//   node bare-undici.mjs '<json options>'
// options: { origin, path, apiKey, concurrency, streaming, prompt,
//            durationMs            -> closed loop until the deadline: { requests, errors, elapsed_ms }
//            requests              -> closed loop of exactly that many requests (JSON or streamed, bodies
//                                      only read): { requests, errors, elapsed_ms }
//            count, warm, records  -> `warm` instant requests first (prompt "warm-i", all at once, not
//                                      counted), then `count` requests; one record per request to the
//                                      file `records`: { prompt, offset_ms, ttfc_ms, latency_ms,
//                                      arrival_ns, stamp_ns, seq, deltas, complete } }
// Times: performance.now() (offsets from the loop's start, ttfc from just before pool.request, as
// kbbench's sentAt); arrival_ns is process.hrtime.bigint() when the first text delta was read.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { setImmediate, setTimeout } from 'node:timers';

const o = JSON.parse(process.argv[2]);
const pool = new Pool(o.origin, { keepAliveTimeout: 120_000, keepAliveMaxTimeout: 600_000, headersTimeout: 0, bodyTimeout: 0 });
const headers = {
  'user-agent': 'bare-undici', accept: o.streaming ? '*/*' : 'application/json', 'x-api-key': o.apiKey, 'content-type': 'application/json',
};
const bodyOf = (prompt) => JSON.stringify({ prompt, streaming: o.streaming ? 'true' : 'false', include_usage: Boolean(o.streaming) });
const HARD_STOP_MS = Number(o.hardStopMs ?? 300_000);
setTimeout(() => {
  console.error('bare-undici: hard stop reached');
  process.exit(3);
}, HARD_STOP_MS).unref();

/** One request, body read to its end; JSON bodies are only consumed. */
async function plain(body) {
  const response = await pool.request({ method: 'POST', path: o.path, headers, body });
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  return response.statusCode === 200 && bytes > 0;
}

/** A closed loop until the deadline, or until `limit` requests were sent (the same work a kbbench run of that many does). */
async function closedLoop(limit = Infinity) {
  const body = bodyOf(o.prompt);
  const start = performance.now();
  const deadline = start + (o.durationMs ?? Infinity);
  let requests = 0;
  let errors = 0;
  let sent = 0;
  const worker = async () => {
    while (performance.now() < deadline && sent++ < limit) {
      try {
        if (await plain(body)) requests++;
        else errors++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return { requests, errors, elapsed_ms: performance.now() - start };
}

const STAMP = /t=(\d+) r=(\d+) /;

/** One streamed request with the marks the streams benchmark needs. */
async function marked(prompt, loopStart) {
  const body = bodyOf(prompt);
  const sentAt = performance.now();
  const response = await pool.request({ method: 'POST', path: o.path, headers, body });
  let firstAt = null;
  let arrival = null;
  let text = '';
  for await (const chunk of response.body) {
    const s = chunk.toString('utf8');
    if (firstAt === null && s.includes('"text-delta"')) {
      firstAt = performance.now();
      arrival = process.hrtime.bigint();
    }
    text += s;
  }
  const endAt = performance.now();
  const stamp = STAMP.exec(text);
  const deltas = text.split('"text-delta"').length - 1;
  return {
    prompt, offset_ms: sentAt - loopStart, ttfc_ms: firstAt === null ? null : firstAt - sentAt, latency_ms: endAt - sentAt,
    arrival_ns: arrival === null ? null : String(arrival), stamp_ns: stamp ? stamp[1] : null, seq: stamp ? Number(stamp[2]) : null,
    deltas, complete: response.statusCode === 200 && deltas === 20 && text.includes('"finish"'),
  };
}

async function countLoop() {
  if (o.warm > 0) {
    const warmBody = (i) => bodyOf(`warm-${i}`);
    await Promise.all(Array.from({ length: o.warm }, (_, i) => plain(warmBody(i))));
    // Let every connection report itself free ('drain') before the measured requests go out; without
    // this pause undici opened a new connection for about a third of them.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const records = [];
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < o.count) {
      const i = next++;
      try {
        records.push(await marked(`${o.prompt}-${i}`, start));
      } catch (error) {
        records.push({ prompt: `${o.prompt}-${i}`, error: String(error?.message ?? error), complete: false });
      }
      // One turn of the event loop before the next request, so the connection that just finished is
      // free again ('drain') and is reused; sent at once, undici opened a new connection for a good
      // share of the second wave (the server's log showed it), which kbbench did not.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, o.count) }, worker));
  const elapsed = performance.now() - start;
  if (o.records) writeFileSync(o.records, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return { requests: records.length, complete: records.filter((r) => r.complete).length, elapsed_ms: elapsed };
}

const result = o.requests ? await closedLoop(o.requests) : o.durationMs ? await closedLoop() : await countLoop();
await pool.close();
console.log(JSON.stringify(result));
