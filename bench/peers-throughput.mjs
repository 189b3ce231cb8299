// Peer bench: throughput of the whole `kbbench run` process beside a bare undici loop and autocannon,
// each in a process of its own, against the same server in a child process on 127.0.0.1, in alternating
// rounds. Targets: bench/servers/kb-server.mjs (instant: costs nothing) and `kbbench serve
// --latency-scale 0` (the embedded reference service run standalone). JSON answers (--no-stream) and
// streamed answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePeer } from './lib/peers.mjs';
import { measure } from './lib/proc.mjs';
import { printMethod, printTable, round } from './lib/stats.mjs';
import {
  askBody, askHeaders, getJson, load1, median, PROMPT, runBare, runKbbench, startKbServer, startServe, writeServeWorkspace, writeSuite,
} from './lib/whole.mjs';

const CONCURRENCY = 32;
const CASES = 100;

const perReqUs = (proc, requests) => round(((proc.user_s + proc.sys_s) * 1e6) / Math.max(1, requests), 0);

/** kbbench whole process: requests / run phase (summary.json totals.duration_ms, the drive without start-up and reports). */
async function kbbenchOnce(ctx, repeat, streaming, tag) {
  const flags = ['--concurrency', String(CONCURRENCY), '--repeat', String(repeat), '--retries', '0', ...(streaming ? [] : ['--no-stream'])];
  const { proc, summary } = await runKbbench({ suite: ctx.suite, origin: ctx.origin, outDir: join(ctx.dir, `kb-${tag}`), flags, apiKey: ctx.apiKey, board: ctx.board, chat: ctx.chat });
  const t = summary.totals;
  if (t.ok !== t.requests || t.requests !== repeat * CASES) throw new Error(`kbbench: ${t.ok} ok of ${t.requests} (expected ${repeat * CASES})`);
  return {
    tool: 'kbbench', requests: t.requests, seconds: t.duration_ms / 1000, req_per_s: (t.requests / t.duration_ms) * 1000,
    wall_req_per_s: (t.requests / proc.wall_ms) * 1000, wall_s: proc.wall_ms / 1000, cpu_us_per_req: perReqUs(proc, t.requests), peak_rss_mb: proc.peak_rss_mb,
  };
}

async function bareOnce(ctx, seconds, streaming) {
  const { proc, result } = await runBare({ origin: ctx.origin, path: ctx.path, apiKey: ctx.apiKey, concurrency: CONCURRENCY, streaming, prompt: PROMPT, durationMs: seconds * 1000 });
  if (result.errors > 0) throw new Error(`bare undici: ${result.errors} errors`);
  return {
    tool: 'bare undici', requests: result.requests, seconds: result.elapsed_ms / 1000, req_per_s: (result.requests / result.elapsed_ms) * 1000,
    wall_req_per_s: (result.requests / proc.wall_ms) * 1000, wall_s: proc.wall_ms / 1000, cpu_us_per_req: perReqUs(proc, result.requests), peak_rss_mb: proc.peak_rss_mb,
  };
}

async function autocannonOnce(ctx, seconds, streaming) {
  const headers = Object.entries(askHeaders(ctx.apiKey)).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const args = [ctx.autocannon.bin, '-c', String(CONCURRENCY), '-d', String(seconds), '-m', 'POST', ...headers, '-b', askBody(PROMPT, streaming), '-j', `${ctx.origin}${ctx.path}`];
  const proc = await measure(ctx.autocannon.node, args, { timeoutMs: (seconds + 60) * 1000 });
  if (proc.code !== 0) throw new Error(`autocannon exited ${proc.code}: ${proc.stderr.slice(-500)}`);
  const r = JSON.parse(proc.stdout);
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) throw new Error(`autocannon: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return {
    tool: 'autocannon', requests: r.requests.total, seconds: r.duration, req_per_s: r.requests.total / r.duration,
    wall_req_per_s: (r.requests.total / proc.wall_ms) * 1000, wall_s: proc.wall_ms / 1000, cpu_us_per_req: perReqUs(proc, r.requests.total), peak_rss_mb: proc.peak_rss_mb,
  };
}

/** One target and mode: a calibration run sizes --repeat, then `rounds` rounds, the tools' order rotating each round. */
async function compare(ctx, { streaming, rounds, seconds, targetSeconds, label }) {
  const mode = streaming ? 'streamed' : 'json';
  // Calibration (also the warm-up, not recorded): kbbench with --repeat CALIB_REPEAT. A short run
  // is slower per request (each run is a fresh, cold process), so R comes out on the long side.
  const calibRepeat = targetSeconds >= 5 ? 30 : 10;
  const calib = await kbbenchOnce(ctx, calibRepeat, streaming, `${label}-${mode}-calib`);
  const repeat = Math.max(10, Math.min(600, Math.round((calib.req_per_s * targetSeconds) / CASES)));
  const tools = {
    kbbench: (r) => kbbenchOnce(ctx, repeat, streaming, `${label}-${mode}-${r}`),
    'bare undici': () => bareOnce(ctx, seconds, streaming),
    autocannon: () => autocannonOnce(ctx, seconds, streaming),
  };
  const order = Object.keys(tools);
  const raw = [];
  for (let r = 0; r < rounds; r++) {
    const rotated = order.map((_, i) => order[(i + r) % order.length]);
    for (const tool of rotated) raw.push({ target: label, mode, round: r + 1, load1: load1(), ...(await tools[tool](r)) });
  }
  const med = (tool, key) => median(raw.filter((x) => x.tool === tool).map((x) => x[key]));
  const kb = med('kbbench', 'req_per_s');
  const rows = order.map((tool) => ({
    target: label, mode, tool, rounds,
    requests_per_round: round(med(tool, 'requests'), 0),
    req_per_s_median: round(med(tool, 'req_per_s'), 0),
    req_per_s_min: round(Math.min(...raw.filter((x) => x.tool === tool).map((x) => x.req_per_s)), 0),
    req_per_s_max: round(Math.max(...raw.filter((x) => x.tool === tool).map((x) => x.req_per_s)), 0),
    wall_req_per_s: round(med(tool, 'wall_req_per_s'), 0),
    kbbench_over_tool: round(kb / med(tool, 'req_per_s'), 3),
    cpu_us_per_req: round(med(tool, 'cpu_us_per_req'), 0),
    peak_rss_mb: round(med(tool, 'peak_rss_mb'), 1), load1: round(med(tool, 'load1'), 2),
  }));
  return { repeat, calibration_req_per_s: round(calib.req_per_s, 0), rows, raw };
}

export async function benchPeersThroughput({ quick = false } = {}) {
  const autocannon = await ensurePeer('autocannon');
  const rounds = quick ? 2 : 5;
  const seconds = quick ? 2 : 5;
  const targetSeconds = quick ? 2 : 9;
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-peers-tp-'));
  const suite = writeSuite(dir, 'peers-throughput', Array.from({ length: CASES }, (_, i) => ({ id: `c${i}`, prompt: PROMPT })));
  const sections = [];
  try {
    const instant = await startKbServer('instant');
    try {
      const ctx = { dir, suite, origin: instant.origin, path: '/api/conversation?board_id=bench-board&chat_id=bench-chat', apiKey: 'bench', board: 'bench-board', chat: 'bench-chat', autocannon };
      for (const streaming of [false, true]) sections.push(await compare(ctx, { streaming, rounds, seconds, targetSeconds, label: 'instant server' }));
      sections.at(-1).server_stats = await getJson(`${instant.origin}/stats`);
    } finally {
      await instant.stop();
    }
    const serve = await startServe(['--latency-scale', '0', '--workspace', writeServeWorkspace(dir)]);
    try {
      const ctx = { dir, suite, origin: serve.origin, path: `/api/conversation?board_id=${serve.board}&chat_id=${serve.chat}`, apiKey: serve.apiKey, board: serve.board, chat: serve.chat, autocannon };
      for (const streaming of [false, true]) sections.push(await compare(ctx, { streaming, rounds, seconds, targetSeconds, label: 'kbbench serve' }));
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = sections.flatMap((s) => s.rows);
  console.log('\n== peers-throughput: the whole kbbench process beside a bare undici loop and autocannon ==');
  printMethod(
    `Two targets, each a child process on 127.0.0.1: bench/servers/kb-server.mjs instant (a JSON answer, or a whole 20-delta UI-message SSE stream, written at once) ` +
      `and \`kbbench serve --latency-scale 0\` (the embedded reference service, demo workspace, API key read from its output). Each tool runs in its own process, ` +
      `${CONCURRENCY} requests in flight, the same POST /api/conversation body and headers as kbbench sends (one prompt). ` +
      `kbbench = \`node dist/cli/main.js run SUITE --base-url ... --concurrency ${CONCURRENCY} --repeat R --retries 0 [--no-stream] --quiet --out TMP\` with a ${CASES}-case suite; ` +
      `R is sized by a calibration run (--repeat 30, quick: 10; not recorded) so a run phase lasts about ${targetSeconds} s; its req/s = summary.json totals.requests / totals.duration_ms ` +
      `(the run phase: after start-up and the board listing, before the reports); wall req/s = requests / the whole process's wall time. ` +
      `bare undici = bench/clients/bare-undici.mjs: one Pool, ${CONCURRENCY} loops for ${seconds} s, body read to its end, nothing recorded. ` +
      `autocannon ${autocannon.version} = -c ${CONCURRENCY} -d ${seconds} -m POST -H ... -b BODY -j; req/s = requests.total / duration. ` +
      `${rounds} rounds, the tools' order rotating each round; figures are medians over rounds. kbbench_over_tool = kbbench median req/s / the tool's. ` +
      `CPU = user+sys of the tool's process tree (GNU time) per request, start-up included; peak RSS = sum over the tree, /proc every 50 ms. ` +
      `The 2 cores are shared by the server and the tool; load1 = the 1-minute load average as each run began.`,
  );
  printTable('peers-throughput: requests per second (medians over rounds)', ['target', 'mode', 'tool', 'requests_per_round', 'req_per_s_median', 'req_per_s_min', 'req_per_s_max', 'wall_req_per_s', 'kbbench_over_tool', 'cpu_us_per_req', 'peak_rss_mb', 'load1'], rows);
  for (const s of sections) {
    const secs = s.raw.filter((x) => x.tool === 'kbbench').map((x) => x.seconds.toFixed(1)).join(', ');
    console.log(`  ${s.rows[0].target}, ${s.rows[0].mode}: kbbench --repeat ${s.repeat} (${s.repeat * CASES} requests; calibration ${s.calibration_req_per_s} req/s; run phases ${secs} s)`);
  }
  return { concurrency: CONCURRENCY, rounds, seconds, autocannon: { version: autocannon.version, install_seconds: autocannon.install_seconds }, sections };
}
