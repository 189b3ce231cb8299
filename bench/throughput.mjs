// Bench b: throughput. Requests per second kbbench sustains against an instant server (the raw SSE
// server in a child process answers every request at once), next to a bare undici loop, in one run.
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createClient } from '../dist/client/index.js';
import { startRun } from '../dist/runner/index.js';
import { caseId } from '../dist/plan/item-id.js';
import { ResultsFile } from '../dist/store/results-file.js';
import { printMethod, printTable, round, startChild } from './lib/stats.mjs';

const SERVER = fileURLToPath(new URL('./servers/sse-server.mjs', import.meta.url));
const TARGET = { boardId: 'bench-board', chatId: 'bench-chat' };
const PATH = `/api/conversation?board_id=${TARGET.boardId}&chat_id=${TARGET.chatId}`;
const BODY = JSON.stringify({ prompt: 'throughput', streaming: 'true' });

/** Runs `one()` in `concurrency` loops until the deadline; counts completions and client CPU. */
async function timedLoop(concurrency, durationMs, one) {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const deadline = start + durationMs;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      await one();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { done, elapsedMs: performance.now() - start, cpu: process.cpuUsage(cpu0) };
}

async function bareOne(pool) {
  const response = await pool.request({ method: 'POST', path: PATH, headers: { 'content-type': 'application/json', 'x-api-key': 'bench' }, body: BODY });
  let finished = false;
  for await (const chunk of response.body) if (!finished && chunk.includes('"finish"')) finished = true;
  if (!finished) throw new Error('no finish');
}

async function clientOne(client) {
  const answer = await client.ask({ ...TARGET, prompt: 'throughput', streaming: true });
  if (answer.chunks.length !== 20) throw new Error('short answer');
}

const SPEC = {
  id: caseId('tp', 'default', 1), case_id: 'tp', thread_id: null, turn: null, model: 'default', request_model: null, repeat: 1,
  prompt: 'throughput', options: { streaming: true, include_usage: false }, checks: [],
};

/** startRun over `count` units (stopped softly at the deadline), each Sample appended to results.ndjson as `kbbench run` does. */
async function runnerLoop(client, concurrency, durationMs, count, dir) {
  const results = new ResultsFile(join(dir, `results-c${concurrency}.ndjson`));
  const stop = new globalThis.AbortController();
  const abort = new globalThis.AbortController();
  // One listener per request in flight lands on the run's signal (see README: MaxListenersExceededWarning).
  setMaxListeners(0, stop.signal, abort.signal);
  const unit = { kind: 'case', index: 0, request: SPEC };
  // A plan-like source: `count` draws of the same unit, made as the runner asks (nothing queued up front).
  const source = { *units() { for (let i = 0; i < count; i++) yield unit; } };
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const timer = setTimeout(() => stop.abort(), durationMs);
  const handle = startRun(source, { client, target: TARGET, concurrency, timeoutMs: 30_000, retries: 0, check: async () => [], stop: stop.signal, abort: abort.signal });
  let done = 0;
  for await (const event of handle.events) {
    if (event.type !== 'sample') continue;
    if (event.sample.outcome !== 'ok') throw new Error(`runner sample failed: ${event.sample.error?.message}`);
    results.append(event.sample);
    done++;
  }
  clearTimeout(timer);
  const elapsedMs = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  results.close();
  return { done, elapsedMs, cpu };
}

function row(concurrency, method, run, bareRps) {
  const rps = (run.done / run.elapsedMs) * 1000;
  return {
    concurrency, method, requests: run.done, seconds: round(run.elapsedMs / 1000, 2),
    req_per_s: round(rps, 0), ratio_vs_bare: round(rps / bareRps, 3),
    client_cpu_us_per_req: round((run.cpu.user + run.cpu.system) / Math.max(1, run.done), 0),
  };
}

const METHODS = ['bare undici', 'kbbench client', 'kbbench runner'];

/** Adds one round's counts into a method's running total. */
function add(total, run) {
  if (!total) return { done: run.done, elapsedMs: run.elapsedMs, cpu: { ...run.cpu } };
  return { done: total.done + run.done, elapsedMs: total.elapsedMs + run.elapsedMs, cpu: { user: total.cpu.user + run.cpu.user, system: total.cpu.system + run.cpu.system } };
}

export async function benchThroughput({ quick = false } = {}) {
  const server = await startChild(SERVER, ['instant']);
  const origin = `http://127.0.0.1:${server.ready.port}`;
  const pool = new Pool(origin, { keepAliveTimeout: 60_000 });
  const client = createClient({ baseUrl: origin, apiKey: 'bench' });
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-tp-'));
  const rounds = quick ? 1 : 3;
  const roundMs = quick ? 500 : 800;
  try {
    const rows = [];
    for (const concurrency of [1, 8, 64]) {
      let bareRps = 5000;
      const loops = {
        'bare undici': (ms) => timedLoop(concurrency, ms, () => bareOne(pool)),
        'kbbench client': (ms) => timedLoop(concurrency, ms, () => clientOne(client)),
        // Enough units to outlast the round even at the bare loop's rate, bounded.
        'kbbench runner': (ms) => runnerLoop(client, concurrency, ms, Math.min(200_000, Math.ceil((bareRps * ms) / 1000) * 2 + concurrency), dir),
      };
      for (const method of METHODS) await loops[method](300); // warm-up at this concurrency, not recorded
      const totals = {};
      for (let r = 0; r < rounds; r++) {
        // Interleaved rounds: drift and the neighbour process hit every method alike.
        for (const method of METHODS) {
          const run = await loops[method](roundMs);
          if (method === 'bare undici') bareRps = (run.done / run.elapsedMs) * 1000;
          totals[method] = add(totals[method], run);
        }
      }
      const bareTotal = (totals['bare undici'].done / totals['bare undici'].elapsedMs) * 1000;
      rows.push(...METHODS.map((method) => row(concurrency, method, totals[method], bareTotal)));
    }
    console.log('\n== b. Throughput against an instant server ==');
    printMethod(
      `the raw SSE server (child process, 127.0.0.1) answers each POST at once with a ${server.ready.chunks}-delta UI-message stream (~1.3 KB). ` +
        `At each concurrency N, after a 0.3 s warm-up of each method, ${rounds} interleaved rounds run each method's N concurrent loops for ${roundMs / 1000} s: ` +
        `bare undici = Pool.request + read the body and find "finish"; kbbench client = createClient().ask({ streaming: true }) (decodes every chunk, ` +
        `times every event); kbbench runner = startRun() closed loop, each Sample appended to results.ndjson with ResultsFile (what \`kbbench run\` does per ` +
        `request). req/s = completed requests / summed round time; ratio = kbbench req/s / bare req/s at the same N. client CPU = process.cpuUsage() of ` +
        `the measuring process per request. The 2 cores are shared with the server process.`,
    );
    printTable('b. requests per second', ['concurrency', 'method', 'requests', 'seconds', 'req_per_s', 'ratio_vs_bare', 'client_cpu_us_per_req'], rows);
    return { rounds, roundMs, rows };
  } finally {
    await client.close();
    await pool.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
