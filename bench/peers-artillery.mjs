// Peer bench: an open loop, 2,000 arrivals a second for 10 s (20,000 requests), artillery 2 beside the
// whole `kbbench run --rate 2000 --duration 10s` process, against the same instant server (child process,
// 127.0.0.1), in alternating rounds. artillery 2 needs Node 22 (engines >=22.18); it runs on the Node 22
// installed into .bench-cache/node22, and kbbench runs on both Nodes (this one and 22).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePeer } from './lib/peers.mjs';
import { measure } from './lib/proc.mjs';
import { printMethod, printTable, round, summarise } from './lib/stats.mjs';
import { API_KEY, ASK_PATH, getJson, instantSetup, load1, median, PROMPT, rotated, runKbbench } from './lib/whole.mjs';

const CASES = 100;

function writeArtilleryConfig(dir, origin, rate, seconds) {
  const text = [
    'config:',
    `  target: ${JSON.stringify(origin)}`,
    '  phases:',
    `    - duration: ${seconds}`,
    `      arrivalRate: ${rate}`,
    '  http:',
    '    timeout: 60',
    'scenarios:',
    '  - flow:',
    '      - post:',
    `          url: ${JSON.stringify(ASK_PATH)}`,
    `          headers: { x-api-key: ${API_KEY} }`,
    `          json: { prompt: ${JSON.stringify(PROMPT)}, streaming: "false", include_usage: false }`,
  ].join('\n');
  const path = join(dir, 'artillery.yml');
  writeFileSync(path, `${text}\n`);
  return path;
}

function serverRate(stats) {
  if (!stats.first_ns || !stats.last_ns) return null;
  const spanS = Number(BigInt(stats.last_ns) - BigInt(stats.first_ns)) / 1e9;
  return spanS > 0 ? (stats.json - 1) / spanS : null;
}

export async function benchPeersArtillery({ quick = false } = {}) {
  const node22 = await ensurePeer('node22');
  const artillery = await ensurePeer('artillery');
  const rate = quick ? 500 : 2000;
  const seconds = quick ? 4 : 10;
  const total = rate * seconds;
  const rounds = quick ? 1 : 3;
  const { dir, server, suite } = await instantSetup('peers-artillery', CASES);
  const config = writeArtilleryConfig(dir, server.origin, rate, seconds);
  const kbFlags = ['--rate', String(rate), '--duration', `${seconds}s`, '--no-stream', '--max-in-flight', String(rate), '--retries', '0'];
  const kbbench = async (tag, node) => {
    const out = join(dir, tag);
    const { proc, summary } = await runKbbench({ suite, origin: server.origin, outDir: out, flags: kbFlags, node, timeoutMs: (seconds + 120) * 1000 });
    const t = summary.totals;
    const delays = readFileSync(join(out, 'results.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).scheduled_delay_ms).filter((d) => typeof d === 'number');
    const d = summarise(delays);
    return {
      proc, requests: t.requests, ok: t.ok, dropped: t.dropped ?? 0, achieved_req_per_s: t.requests_per_s, latency_p99: t.latency_ms?.p99 ?? null, corrected_p99: t.corrected_latency_ms?.p99 ?? null,
      start_delay_p99: d.p99, start_delay_max: d.max, late_over_10ms: delays.filter((x) => x > 10).length,
    };
  };
  const tools = {
    'kbbench (node 20)': (r) => kbbench(`kb20-${r}`, process.execPath),
    'kbbench (node 22)': (r) => kbbench(`kb22-${r}`, node22.bin),
    artillery: async (r) => {
      const out = join(dir, `art-${r}.json`);
      const env = { ...process.env, ARTILLERY_DISABLE_TELEMETRY: 'true', NO_COLOR: '1' };
      const proc = await measure(artillery.node, [artillery.bin, 'run', config, '--output', out, '--quiet'], { env, cwd: dir, timeoutMs: (seconds + 180) * 1000 });
      if (proc.code !== 0) throw new Error(`artillery exited ${proc.code}: ${proc.stderr.slice(-800)}`);
      const a = JSON.parse(readFileSync(out, 'utf8')).aggregate;
      const c = a.counters;
      return {
        proc, requests: c['http.requests'] ?? 0, ok: c['http.codes.200'] ?? 0, failed: c['vusers.failed'] ?? 0, achieved_req_per_s: a.rates?.['http.request_rate'] ?? null,
        latency_p99: a.summaries?.['http.response_time']?.p99 ?? null, corrected_p99: null, session_p99: a.summaries?.['vusers.session_length']?.p99 ?? null,
      };
    },
  };
  const raw = [];
  try {
    await getJson(`${server.origin}/stats?reset=1`);
    for (let r = 0; r < rounds; r++) {
      for (const tool of rotated(Object.keys(tools), r)) {
        const l = load1();
        const run = await tools[tool](r);
        const stats = await getJson(`${server.origin}/stats?reset=1`);
        raw.push({
          tool, round: r + 1, load1: l, requests: run.requests, ok: run.ok, dropped: run.dropped ?? 0, server_answered: stats.json, server_connections: stats.connections,
          achieved_req_per_s: run.achieved_req_per_s, server_req_per_s: serverRate(stats), latency_p99_ms: run.latency_p99, corrected_p99_ms: run.corrected_p99,
          start_delay_p99_ms: run.start_delay_p99 ?? null, late_over_10ms: run.late_over_10ms ?? null, session_p99_ms: run.session_p99 ?? null,
          wall_s: run.proc.wall_ms / 1000, cpu_s: run.proc.cpu_s, peak_rss_mb: run.proc.peak_rss_mb, max_single_rss_mb: run.proc.max_single_rss_mb, processes: run.proc.max_processes,
        });
      }
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (tool, key) => median(raw.filter((x) => x.tool === tool && x[key] !== null).map((x) => x[key]));
  const artRss = med('artillery', 'peak_rss_mb');
  const artWall = med('artillery', 'wall_s');
  const keys = ['load1', 'requests', 'ok', 'dropped', 'server_answered', 'server_connections', 'achieved_req_per_s', 'server_req_per_s', 'latency_p99_ms', 'corrected_p99_ms', 'start_delay_p99_ms', 'late_over_10ms', 'session_p99_ms', 'wall_s', 'cpu_s', 'peak_rss_mb', 'max_single_rss_mb', 'processes'];
  const rows = Object.keys(tools).map((tool) => ({
    tool, rounds, ...Object.fromEntries(keys.map((k) => [k, round(med(tool, k), k.endsWith('_mb') || k.endsWith('_s') ? 1 : 2)])),
    rss_vs_artillery: round(med(tool, 'peak_rss_mb') / artRss, 2), wall_vs_artillery: round(med(tool, 'wall_s') / artWall, 2),
  }));
  console.log('\n== peers-artillery: open loop, artillery beside the whole kbbench process ==');
  printMethod(
    `bench/servers/kb-server.mjs instant (child process, 127.0.0.1) answers every POST at once with JSON. ${rate} arrivals/s for ${seconds} s (${total} requests), the same body and headers: ` +
      `kbbench = \`node dist/cli/main.js run SUITE --base-url ... ${kbFlags.join(' ')} --quiet --out TMP\` (${CASES} cases, one prompt, cycled), on Node ${process.version} and Node ${node22.version}; ` +
      `artillery ${artillery.version} (Node ${node22.version}) = \`artillery run CONFIG --output out.json --quiet\`, one phase {duration ${seconds}, arrivalRate ${rate}}, one POST per virtual user ` +
      '(each virtual user opens its own connection), telemetry off. ' +
      `${rounds} round(s), order rotating; medians. achieved = the tool's own figure (kbbench: summary.json totals.requests_per_s = requests / run phase; artillery: http.request_rate); ` +
      'server req/s = (answered - 1) / the span between the first and last arrival the server saw. latency p99 = kbbench totals.latency_ms.p99 (from send), artillery ' +
      'http.response_time p99 (whole ms); corrected p99 = kbbench totals.corrected_latency_ms.p99, from the intended start (artillery has none: a late arrival is not counted as late). ' +
      'start delay = kbbench results.ndjson scheduled_delay_ms (how late each request really left); late_over_10ms counts starts more than 10 ms late; ' +
      'dropped = kbbench totals.dropped, planned starts still waiting for a slot (--max-in-flight) when the duration ended, never sent. ' +
      'artillery reports no lateness: when it falls behind, its arrivals are simply later, and its response times stay those of an unloaded server. ' +
      'wall = whole process; peak RSS = sum over the process tree, /proc every 50 ms; CPU = user+sys of the tree.',
  );
  printTable(`peers-artillery: ${rate}/s for ${seconds} s (medians over rounds)`, ['tool', 'rounds', 'load1', 'requests', 'ok', 'dropped', 'server_answered', 'server_connections', 'achieved_req_per_s', 'server_req_per_s', 'latency_p99_ms', 'corrected_p99_ms', 'start_delay_p99_ms', 'late_over_10ms', 'session_p99_ms', 'wall_s', 'cpu_s', 'peak_rss_mb', 'max_single_rss_mb', 'processes', 'rss_vs_artillery', 'wall_vs_artillery'], rows);
  return { rate, seconds, requests: total, rounds, artillery: { version: artillery.version, install_seconds: artillery.install_seconds }, node22: { version: node22.version }, rows, raw };
}
