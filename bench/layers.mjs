// Where a kbbench run's time per request goes, layer by layer: the same closed loop of JSON requests
// (32 in flight, an instant server) sent by a bare undici loop, by kbbench's client alone, by its
// runner (client + plan + Samples), and by the whole `kbbench run` process (+ the session: results
// file, per-second recorder, redaction, stop conditions), each a fresh process, in alternating
// rounds. The difference between two layers' µs per request is what the upper one adds.
//   node bench/run-all.mjs layers
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './lib/proc.mjs';
import { printMethod, printTable, round } from './lib/stats.mjs';
import { API_KEY, BOARD, CHAT, instantSetup, load1, median, PROMPT, rotated, runBare, runKbbench } from './lib/whole.mjs';

const CONCURRENCY = 32;
const CASES = 100;
const LAYER = fileURLToPath(new URL('./clients/kbbench-layer.mjs', import.meta.url));

async function runLayer(layer, options) {
  const proc = await measure(process.execPath, [LAYER, JSON.stringify({ layer, ...options })], { timeoutMs: 180_000 });
  if (proc.code !== 0) throw new Error(`${layer} layer exited ${proc.code}: ${proc.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  return { proc, result: JSON.parse(proc.stdout.trim().split('\n').at(-1)) };
}

export async function benchLayers({ quick = false } = {}) {
  const repeat = quick ? 100 : 600;
  const total = repeat * CASES;
  const rounds = quick ? 2 : 4;
  const { dir, server, suite } = await instantSetup('layers', CASES);
  const common = { origin: server.origin, board: BOARD, chat: CHAT, apiKey: API_KEY, suite, repeat, concurrency: CONCURRENCY, prompt: PROMPT };
  const tools = {
    'bare undici': async () => {
      const { proc, result } = await runBare({ origin: server.origin, concurrency: CONCURRENCY, streaming: false, prompt: PROMPT, requests: total });
      return { proc, requests: result.requests, phase_ms: result.elapsed_ms };
    },
    'kbbench client': async () => {
      const { proc, result } = await runLayer('client', common);
      return { proc, requests: result.requests, phase_ms: result.elapsed_ms };
    },
    'kbbench runner': async () => {
      const { proc, result } = await runLayer('runner', common);
      return { proc, requests: result.requests, phase_ms: result.elapsed_ms };
    },
    'kbbench run': async (r) => {
      const flags = ['--concurrency', String(CONCURRENCY), '--repeat', String(repeat), '--retries', '0', '--no-stream'];
      const { proc, summary } = await runKbbench({ suite, origin: server.origin, outDir: join(dir, `run-${r}`), flags });
      return { proc, requests: summary.totals.ok, phase_ms: summary.totals.duration_ms };
    },
  };
  const raw = [];
  try {
    for (const tool of Object.keys(tools)) await tools[tool]('warm');
    for (let r = 0; r < rounds; r++) {
      for (const tool of rotated(Object.keys(tools), r)) {
        const l = load1();
        const run = await tools[tool](r);
        if (run.requests !== total) throw new Error(`${tool}: ${run.requests} of ${total} answered`);
        raw.push({ tool, round: r + 1, load1: l, req_per_s: (total / run.phase_ms) * 1000, us_per_req: (run.phase_ms * 1000) / total, cpu_s: run.proc.cpu_s });
      }
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (tool, key) => median(raw.filter((x) => x.tool === tool).map((x) => x[key]));
  const names = Object.keys(tools);
  const rows = names.map((tool, i) => ({
    tool, rounds, requests: total, load1: round(med(tool, 'load1'), 2),
    req_per_s: round(med(tool, 'req_per_s'), 0), wall_us_per_req: round(med(tool, 'us_per_req'), 1),
    adds_us_per_req: i === 0 ? null : round(med(tool, 'us_per_req') - med(names[i - 1], 'us_per_req'), 1),
    vs_bare: round(med(tool, 'req_per_s') / med('bare undici', 'req_per_s'), 3),
    process_cpu_s: round(med(tool, 'cpu_s'), 2),
  }));
  console.log('\n== layers: where a run\'s time per request goes ==');
  printMethod(
    `bench/servers/kb-server.mjs instant (child process, 127.0.0.1) answers each POST at once with JSON. ${total} requests, ${CONCURRENCY} in flight, each layer a fresh process: ` +
      'bare undici = bench/clients/bare-undici.mjs (requests mode); kbbench client = bench/clients/kbbench-layer.mjs client (createClient().ask in 32 loops); ' +
      'kbbench runner = the same file, runner (startRun over a 100-case plan, events dropped); kbbench run = the whole CLI process (--no-stream --retries 0 --quiet). ' +
      'Times are each layer\'s own loop (kbbench run: summary.json totals.duration_ms), warm-up of each first, then rounds with the order rotating; medians. ' +
      'adds_us_per_req = this layer\'s wall µs per request minus the layer above it in the table.',
  );
  printTable('layers (medians over rounds)', ['tool', 'rounds', 'requests', 'load1', 'req_per_s', 'wall_us_per_req', 'adds_us_per_req', 'vs_bare', 'process_cpu_s'], rows);
  return { requests: total, concurrency: CONCURRENCY, rounds, rows, raw };
}
