// Peer bench: promptfoo (its HTTP provider) beside the whole `kbbench run` process, the same number of
// prompts against the same instant server (child process, 127.0.0.1), in alternating rounds: requests
// per second and peak RSS of each process tree. promptfoo needs Node 22 (engines >=22.22); it runs on
// the Node 22 installed into .bench-cache/node22, and kbbench runs on both Nodes (this one and 22).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePeer } from './lib/peers.mjs';
import { measure } from './lib/proc.mjs';
import { printMethod, printTable, round } from './lib/stats.mjs';
import { API_KEY, ASK_PATH, getJson, instantSetup, load1, median, PROMPT, rotated, runBare, runKbbench } from './lib/whole.mjs';

const CONCURRENCY = 32;
const CASES = 100;

/** A promptfoo config: one prompt (the same text kbbench sends), the HTTP provider with kbbench's body and headers, CASES tests. */
function writeConfig(dir, origin) {
  const lines = [
    'description: kbbench peer benchmark',
    'prompts:',
    `  - ${JSON.stringify(PROMPT)}`,
    'providers:',
    '  - id: http',
    '    config:',
    `      url: ${JSON.stringify(`${origin}${ASK_PATH}`)}`,
    '      method: POST',
    `      headers: { content-type: application/json, x-api-key: ${API_KEY} }`,
    "      body: { prompt: '{{prompt}}', streaming: 'false', include_usage: false }",
    "      transformResponse: 'json.text'",
    'tests:',
    ...Array.from({ length: CASES }, (_, i) => `  - vars: { i: ${i} }`),
  ];
  const path = join(dir, 'promptfooconfig.yaml');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Requests per second over the span the server saw them arrive (first to last arrival). */
function serverSpan(stats, requests) {
  if (!stats.first_ns || !stats.last_ns) return { span_s: null, server_req_per_s: null };
  const spanS = Number(BigInt(stats.last_ns) - BigInt(stats.first_ns)) / 1e9;
  return { span_s: spanS, server_req_per_s: spanS > 0 ? (requests - 1) / spanS : null };
}

export async function benchPeersPromptfoo({ quick = false } = {}) {
  const node22 = await ensurePeer('node22');
  const promptfoo = await ensurePeer('promptfoo');
  const repeat = quick ? 5 : 20;
  const total = repeat * CASES;
  const rounds = quick ? 1 : 3;
  const { dir, server, suite } = await instantSetup('peers-promptfoo', CASES);
  const config = writeConfig(dir, server.origin);
  const pfHome = join(dir, 'promptfoo-home');
  mkdirSync(pfHome);
  const pfEnv = {
    ...process.env, PROMPTFOO_CONFIG_DIR: pfHome, PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_SHARING: '1', PROMPTFOO_DISABLE_REMOTE_GENERATION: 'true', NO_COLOR: '1',
  };
  const kbFlags = ['--concurrency', String(CONCURRENCY), '--repeat', String(repeat), '--no-stream', '--retries', '0'];
  const tools = {
    'kbbench (node 20)': async (r) => {
      const { proc, summary } = await runKbbench({ suite, origin: server.origin, outDir: join(dir, `kb20-${r}`), flags: kbFlags });
      return { proc, ok: summary.totals.ok, phase_s: summary.totals.duration_ms / 1000 };
    },
    'kbbench (node 22)': async (r) => {
      const { proc, summary } = await runKbbench({ suite, origin: server.origin, outDir: join(dir, `kb22-${r}`), flags: kbFlags, node: node22.bin });
      return { proc, ok: summary.totals.ok, phase_s: summary.totals.duration_ms / 1000 };
    },
    // The HTTP client kbbench is built on, doing the same 2,000 requests from a fresh process and
    // nothing else: how fast a run phase this short can be at all (its start, JIT and connections).
    'bare undici (node 20)': async () => {
      const { proc, result } = await runBare({ origin: server.origin, concurrency: CONCURRENCY, streaming: false, prompt: PROMPT, requests: total });
      return { proc, ok: result.requests, phase_s: result.elapsed_ms / 1000 };
    },
    promptfoo: async (r) => {
      const out = join(dir, `pf-${r}.json`);
      const args = [promptfoo.bin, 'eval', '-c', config, '-j', String(CONCURRENCY), '--repeat', String(repeat), '--no-cache', '--no-table', '--no-progress-bar', '-o', out];
      const proc = await measure(promptfoo.node, args, { env: pfEnv, cwd: dir, timeoutMs: 600_000 });
      // promptfoo exits 100 when a test fails; there are no assertions here, so any non-zero exit is an error.
      if (proc.code !== 0) throw new Error(`promptfoo exited ${proc.code}: ${proc.stderr.slice(-800)} ${proc.stdout.slice(-800)}`);
      const results = JSON.parse(readFileSync(out, 'utf8')).results;
      // promptfoo's own figure for its evaluation phase (after loading, before writing out.json).
      const phaseMs = results.stats?.evaluationDurationMs ?? results.stats?.durationMs ?? null;
      return { proc, ok: results.stats?.successes ?? null, phase_s: phaseMs === null ? null : phaseMs / 1000 };
    },
  };
  const raw = [];
  try {
    // One unrecorded warm-up of each (caches, JIT, promptfoo's database created).
    for (const tool of Object.keys(tools)) await tools[tool]('warm');
    await getJson(`${server.origin}/stats?reset=1`);
    for (let r = 0; r < rounds; r++) {
      for (const tool of rotated(Object.keys(tools), r)) {
        const l = load1();
        const run = await tools[tool](r);
        const stats = await getJson(`${server.origin}/stats?reset=1`);
        if (stats.json !== total || run.ok !== total) throw new Error(`${tool}: the server answered ${stats.json}, the tool counted ${run.ok} ok, of ${total}`);
        const span = serverSpan(stats, stats.json);
        raw.push({
          tool, round: r + 1, load1: l, requests: stats.json, wall_s: run.proc.wall_ms / 1000, wall_req_per_s: (stats.json / run.proc.wall_ms) * 1000,
          phase_s: run.phase_s, phase_req_per_s: run.phase_s ? stats.json / run.phase_s : null, span_s: span.span_s, server_req_per_s: span.server_req_per_s,
          cpu_s: run.proc.cpu_s, peak_rss_mb: run.proc.peak_rss_mb, max_single_rss_mb: run.proc.max_single_rss_mb, processes: run.proc.max_processes,
        });
      }
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (tool, key) => median(raw.filter((x) => x.tool === tool).map((x) => x[key]));
  const pf = { wall: med('promptfoo', 'wall_req_per_s'), phase: med('promptfoo', 'phase_req_per_s'), span: med('promptfoo', 'server_req_per_s'), rss: med('promptfoo', 'peak_rss_mb') };
  const rows = Object.keys(tools).map((tool) => ({
    tool, rounds, load1: round(med(tool, 'load1'), 2), requests: total, wall_s: round(med(tool, 'wall_s'), 2), wall_req_per_s: round(med(tool, 'wall_req_per_s'), 0),
    phase_s: round(med(tool, 'phase_s'), 2), phase_req_per_s: round(med(tool, 'phase_req_per_s'), 0),
    server_span_s: round(med(tool, 'span_s'), 2), server_req_per_s: round(med(tool, 'server_req_per_s'), 0),
    cpu_s: round(med(tool, 'cpu_s'), 2), peak_rss_mb: round(med(tool, 'peak_rss_mb'), 1), max_single_rss_mb: round(med(tool, 'max_single_rss_mb'), 1), processes: med(tool, 'processes'),
    'wall_rps_vs_promptfoo': round(med(tool, 'wall_req_per_s') / pf.wall, 2),
    'phase_rps_vs_promptfoo': round(med(tool, 'phase_req_per_s') / pf.phase, 2),
    'server_rps_vs_promptfoo': round(med(tool, 'server_req_per_s') / pf.span, 2),
    'rss_vs_promptfoo': round(med(tool, 'peak_rss_mb') / pf.rss, 2),
  }));
  console.log('\n== peers-promptfoo: promptfoo beside the whole kbbench process ==');
  printMethod(
    `bench/servers/kb-server.mjs instant (child process, 127.0.0.1) answers every POST at once with JSON. ${total} requests per run, ${CONCURRENCY} in flight, the same body and headers: ` +
      `kbbench = \`node dist/cli/main.js run SUITE --base-url ... ${kbFlags.join(' ')} --quiet --out TMP\` (${CASES} cases, one prompt), on Node ${process.version} and on Node ${node22.version}; ` +
      `promptfoo ${promptfoo.version} (Node ${node22.version}) = \`promptfoo eval -c CONFIG -j ${CONCURRENCY} --repeat ${repeat} --no-cache --no-table --no-progress-bar -o out.json\`, ` +
      `the HTTP provider POSTing {prompt, streaming:"false", include_usage:false} with x-api-key, transformResponse json.text, ${CASES} tests, no assertions, ` +
      'PROMPTFOO_CONFIG_DIR in a temp folder, telemetry, update check and sharing off. Both write their results as they normally do (kbbench: run folder and reports; ' +
      'promptfoo: its database and out.json). Counts are checked on the server (GET /stats) and in each tool\'s output. ' +
      `One unrecorded warm-up run of each, then ${rounds} round(s), order rotating; medians. wall req/s = requests / the process's wall time (start-up and reports included); ` +
      'phase req/s = requests / the tool\'s own run phase (kbbench: summary.json totals.duration_ms; promptfoo: out.json results.stats.evaluationDurationMs); ' +
      'server req/s = (requests - 1) / the span between the first and the last request the server saw arrive, so start-up and the end are left out alike for every tool. ' +
      'Peak RSS = sum over the process tree from /proc every 50 ms; max single = GNU time %M; CPU = user+sys of the tree. ' +
      'bare undici = bench/clients/bare-undici.mjs, one undici Pool and 32 loops sending the same POST and reading each body, nothing recorded: the ceiling of a run phase this short on this client (its phase = its own loop time).',
  );
  printTable('peers-promptfoo (medians over rounds)', ['tool', 'rounds', 'load1', 'requests', 'wall_s', 'wall_req_per_s', 'phase_s', 'phase_req_per_s', 'server_span_s', 'server_req_per_s', 'cpu_s', 'peak_rss_mb', 'max_single_rss_mb', 'processes', 'wall_rps_vs_promptfoo', 'phase_rps_vs_promptfoo', 'server_rps_vs_promptfoo', 'rss_vs_promptfoo'], rows);
  return { requests: total, concurrency: CONCURRENCY, rounds, promptfoo: { version: promptfoo.version, install_seconds: promptfoo.install_seconds }, node22: { version: node22.version, install_seconds: node22.install_seconds }, rows, raw };
}
