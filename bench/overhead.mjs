// Bench a: harness overhead and measurement accuracy. A raw SSE server in a child process streams with
// known delays and timestamps them itself; kbbench's client and runner measure the same streams as a
// bare undici loop does, in the same run, interleaved, and every measurement is paired with the truth.
import { setMaxListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Pool, request } from 'undici';
import { createClient } from '../dist/client/index.js';
import { startRun } from '../dist/runner/index.js';
import { caseId } from '../dist/plan/item-id.js';
import { printMethod, printTable, round, startChild, summarise } from './lib/stats.mjs';

const SERVER = fileURLToPath(new URL('./servers/sse-server.mjs', import.meta.url));
const TARGET = { boardId: 'bench-board', chatId: 'bench-chat' };
const PATH = `/api/conversation?board_id=${TARGET.boardId}&chat_id=${TARGET.chatId}`;

/** The bare loop: one undici request, timestamps on the first text-delta and on finish. */
async function bareOne(pool, prompt) {
  const body = JSON.stringify({ prompt, streaming: 'true' });
  const sentAt = performance.now();
  const response = await pool.request({ method: 'POST', path: PATH, headers: { 'content-type': 'application/json', 'x-api-key': 'bench' }, body });
  let firstAt = null;
  let finishAt = null;
  for await (const chunk of response.body) {
    const now = performance.now();
    if (firstAt === null && chunk.includes('"text-delta"')) firstAt = now;
    if (finishAt === null && chunk.includes('"finish"')) finishAt = now;
  }
  return { prompt, ttfcMs: firstAt - sentAt, latencyMs: finishAt - sentAt };
}

async function clientOne(client, prompt) {
  const answer = await client.ask({ ...TARGET, prompt, streaming: true });
  const { sentAt, firstChunkAt, finishAt } = answer.marks;
  if (answer.chunks.length !== 20) throw new Error(`expected 20 chunks, got ${answer.chunks.length}`);
  return { prompt, ttfcMs: firstChunkAt - sentAt, latencyMs: finishAt - sentAt };
}

/** `count` calls of `one(prompt)`, `concurrency` at a time. */
async function pooled(count, concurrency, prefix, one) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results.push(await one(`${prefix}-${i}`));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

const specOf = (prompt) => ({
  id: caseId(prompt, 'default', 1), case_id: prompt, thread_id: null, turn: null, model: 'default', request_model: null, repeat: 1,
  prompt, options: { streaming: true, include_usage: false }, checks: [],
});

/** The runner as `kbbench run` drives it: startRun over case units, samples consumed as events. */
async function runnerBatch(client, count, concurrency, prefix) {
  const units = Array.from({ length: count }, (_, i) => ({ kind: 'case', index: i, request: specOf(`${prefix}-${i}`) }));
  const stop = new globalThis.AbortController().signal;
  const abort = new globalThis.AbortController().signal;
  // Every request in flight adds a listener to the run's signals (README: MaxListenersExceededWarning).
  setMaxListeners(0, stop, abort);
  const handle = startRun({ units: () => units.values() }, { client, target: TARGET, concurrency, timeoutMs: 30_000, retries: 0, check: async () => [], stop, abort });
  const results = [];
  for await (const event of handle.events) {
    if (event.type !== 'sample') continue;
    const s = event.sample;
    if (s.outcome !== 'ok') throw new Error(`runner sample failed: ${s.error?.message}`);
    results.push({ prompt: s.prompt, ttfcMs: s.ttfc_ms, latencyMs: s.latency_ms });
  }
  return results;
}

async function fetchTruth(origin) {
  const response = await request(`${origin}/truth`);
  return response.body.json();
}

/** Measurement minus truth, per request. */
function pair(measured, truth) {
  return measured.map((m) => {
    const t = truth[m.prompt];
    if (!t) throw new Error(`no server timing for ${m.prompt}`);
    return { ttfcErr: m.ttfcMs - t.ttfcMs, latencyErr: m.latencyMs - t.latencyMs, trueTtfc: t.ttfcMs, trueLatency: t.latencyMs };
  });
}

const METHODS = ['bare undici', 'kbbench client', 'kbbench runner'];

async function measure(origin, tools, concurrency, rounds, perRound) {
  const paired = Object.fromEntries(METHODS.map((m) => [m, []]));
  for (let r = 0; r < rounds; r++) {
    // Interleaved rounds: drift (thermal, GC, the other process) hits every method alike.
    const batches = {
      'bare undici': () => pooled(perRound, concurrency, `bare-c${concurrency}-${r}`, (p) => bareOne(tools.pool, p)),
      'kbbench client': () => pooled(perRound, concurrency, `client-c${concurrency}-${r}`, (p) => clientOne(tools.client, p)),
      'kbbench runner': () => runnerBatch(tools.client, perRound, concurrency, `runner-c${concurrency}-${r}`),
    };
    for (const method of METHODS) {
      const measured = await batches[method]();
      paired[method].push(...pair(measured, await fetchTruth(origin)));
    }
  }
  return paired;
}

function rowsOf(concurrency, paired) {
  const bare = { ttfc: summarise(paired['bare undici'].map((p) => p.ttfcErr)), latency: summarise(paired['bare undici'].map((p) => p.latencyErr)) };
  return METHODS.map((method) => {
    const ttfc = summarise(paired[method].map((p) => p.ttfcErr));
    const latency = summarise(paired[method].map((p) => p.latencyErr));
    const trueTtfc = summarise(paired[method].map((p) => p.trueTtfc));
    const trueLatency = summarise(paired[method].map((p) => p.trueLatency));
    return {
      concurrency, method, n: ttfc.n,
      true_ttfc_mean: round(trueTtfc.mean), true_latency_mean: round(trueLatency.mean),
      ttfc_err_mean: round(ttfc.mean), ttfc_err_p50: round(ttfc.p50), ttfc_err_p99: round(ttfc.p99),
      lat_err_mean: round(latency.mean), lat_err_p50: round(latency.p50), lat_err_p99: round(latency.p99),
      overhead_ttfc_mean: round(ttfc.mean - bare.ttfc.mean), overhead_ttfc_p50: round(ttfc.p50 - bare.ttfc.p50), overhead_ttfc_p99: round(ttfc.p99 - bare.ttfc.p99),
      overhead_lat_mean: round(latency.mean - bare.latency.mean), overhead_lat_p50: round(latency.p50 - bare.latency.p50), overhead_lat_p99: round(latency.p99 - bare.latency.p99),
    };
  });
}

export async function benchOverhead({ quick = false } = {}) {
  const server = await startChild(SERVER, ['timed']);
  const origin = `http://127.0.0.1:${server.ready.port}`;
  const pool = new Pool(origin, { keepAliveTimeout: 60_000 });
  const client = createClient({ baseUrl: origin, apiKey: 'bench' });
  try {
    // Warm-up (JIT, sockets), not recorded.
    await measure(origin, { pool, client }, 4, 1, 8);
    const plan = [
      { concurrency: 1, rounds: quick ? 2 : 4, perRound: quick ? 4 : 8 },
      { concurrency: 32, rounds: quick ? 1 : 3, perRound: 64 },
    ];
    const rows = [];
    for (const { concurrency, rounds, perRound } of plan) rows.push(...rowsOf(concurrency, await measure(origin, { pool, client }, concurrency, rounds, perRound)));
    const { ttfcMs, chunks, gapMs } = server.ready;
    console.log(`\n== a. Harness overhead and measurement accuracy (server: TTFC ${ttfcMs} ms, ${chunks} chunks ${gapMs} ms apart) ==`);
    printMethod(
      `raw node:http SSE server in a child process on 127.0.0.1 timestamps (performance.now) its own first text write and its finish write, relative to the request's arrival; ` +
        `those are the true delays. Each request's client-side TTFC (sent -> first text-delta) and latency (sent -> finish) minus the true value is its error: ` +
        `the loopback round trip plus whatever the measuring code adds. The bare loop is undici Pool.request + scanning each body chunk for the markers; ` +
        `the kbbench client is createClient().ask() (marks.firstChunkAt / finishAt); the runner is startRun() (Sample.ttfc_ms / latency_ms). ` +
        `Methods alternate in rounds in one process; overhead = kbbench error minus bare error (mean, p50, p99 each). All times ms.`,
    );
    printTable('a1. error versus the server’s true delays (ms)', ['concurrency', 'method', 'n', 'true_ttfc_mean', 'true_latency_mean', 'ttfc_err_mean', 'ttfc_err_p50', 'ttfc_err_p99', 'lat_err_mean', 'lat_err_p50', 'lat_err_p99'], rows);
    printTable('a2. kbbench overhead versus the bare undici loop (ms)', ['concurrency', 'method', 'overhead_ttfc_mean', 'overhead_ttfc_p50', 'overhead_ttfc_p99', 'overhead_lat_mean', 'overhead_lat_p50', 'overhead_lat_p99'], rows.filter((r) => r.method !== 'bare undici'));
    return { server: server.ready, rows };
  } finally {
    await client.close();
    await pool.close();
    await server.stop();
  }
}
