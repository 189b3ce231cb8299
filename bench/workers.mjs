// Bench: `--workers 1` against `--workers 2` (and more, on a machine with the cores): requests/s
// of the run phase and the process's CPU, whole `kbbench run` processes against the instant server
// (bench/servers/kb-server.mjs, in a child process on 127.0.0.1), in alternating rounds.
// Usage: node bench/workers.mjs [--workers 1,2] [--rounds 3] [--repeat 20] [--concurrency 64] [--rate R --duration 5s] [--json]
// With --rate: an arrival-rate run instead (achieved rate, dropped, corrected p99 from summary.json).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { printMethod, printTable, round } from './lib/stats.mjs';
import { load1, median, PROMPT, rotated, runKbbench, startKbServer, writeSuite } from './lib/whole.mjs';

const { values } = parseArgs({ options: { workers: { type: 'string', default: '1,2' }, rounds: { type: 'string', default: '3' }, repeat: { type: 'string', default: '20' }, concurrency: { type: 'string', default: '64' }, rate: { type: 'string' }, duration: { type: 'string', default: '5s' }, json: { type: 'boolean', default: false } } });
const WORKERS = values.workers.split(',').map(Number);
const ROUNDS = Number(values.rounds);
const REPEAT = Number(values.repeat);
const CONCURRENCY = Number(values.concurrency);
const CASES = 100;

async function once(ctx, workers, streaming, tag) {
  const load = values.rate ? ['--rate', values.rate, '--duration', values.duration, '--max-in-flight', String(CONCURRENCY)] : ['--concurrency', String(CONCURRENCY), '--repeat', String(REPEAT)];
  const flags = [...load, '--retries', '0', '--workers', String(workers), ...(streaming ? [] : ['--no-stream'])];
  const { proc, run, summary } = await runKbbench({ suite: ctx.suite, origin: ctx.origin, outDir: join(ctx.dir, tag), flags });
  const t = summary.totals;
  if (values.rate) {
    const cpuS = proc.user_s + proc.sys_s;
    return { workers, req_per_s: (t.requests / t.duration_ms) * 1000, planned: run.plan.starts, dropped: run.dropped, corrected_p99_ms: t.corrected_latency_ms?.p99 ?? null, cpu_s: cpuS, cpu_us_per_req: (cpuS * 1e6) / t.requests, wall_s: proc.wall_ms / 1000, peak_rss_mb: proc.peak_rss_mb };
  }
  if (t.ok !== t.requests || t.requests !== REPEAT * CASES) throw new Error(`--workers ${workers}: ${t.ok} ok of ${t.requests}`);
  const cpuS = proc.user_s + proc.sys_s;
  return { workers, req_per_s: (t.requests / t.duration_ms) * 1000, cpu_s: cpuS, cpu_us_per_req: (cpuS * 1e6) / t.requests, wall_s: proc.wall_ms / 1000, peak_rss_mb: proc.peak_rss_mb };
}

const dir = mkdtempSync(join(tmpdir(), 'kbbench-workers-'));
const sections = [];
try {
  const suite = writeSuite(dir, 'workers', Array.from({ length: CASES }, (_, i) => ({ id: `c${i}`, prompt: PROMPT })));
  const server = await startKbServer('instant');
  try {
    for (const streaming of [false, true]) {
      const rows = [];
      const loadBefore = load1();
      for (let r = 0; r < ROUNDS; r += 1) {
        for (const w of rotated(WORKERS, r)) rows.push(await once({ dir, suite, origin: server.origin }, w, streaming, `${streaming ? 's' : 'j'}-${w}-${r}`));
      }
      const medians = WORKERS.map((w) => {
        const mine = rows.filter((x) => x.workers === w);
        const m = (f) => median(mine.map(f));
        return { workers: w, req_per_s: round(m((x) => x.req_per_s), 0), ...(values.rate ? { dropped: m((x) => x.dropped), corrected_p99_ms: round(m((x) => x.corrected_p99_ms ?? 0), 1) } : {}), cpu_s: round(m((x) => x.cpu_s), 2), cpu_us_per_req: round(m((x) => x.cpu_us_per_req), 0), wall_s: round(m((x) => x.wall_s), 2), peak_rss_mb: round(m((x) => x.peak_rss_mb), 1) };
      });
      sections.push({ mode: streaming ? 'streamed' : 'json', concurrency: CONCURRENCY, requests: values.rate ? null : REPEAT * CASES, rate: values.rate ?? null, rounds: ROUNDS, load1_before: loadBefore, load1_after: load1(), medians });
    }
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (values.json) console.log(JSON.stringify({ cores: availableParallelism(), sections }, null, 2));
else {
  const shape = values.rate ? `--rate ${values.rate} --duration ${values.duration} --max-in-flight ${CONCURRENCY}` : `${CASES} cases × --repeat ${REPEAT}, --concurrency ${CONCURRENCY}`;
  printMethod(`kbbench run --workers ${WORKERS.join(' vs ')}: ${shape}, instant server, ${ROUNDS} alternating rounds, medians; ${availableParallelism()} cores`);
  for (const s of sections) {
    printTable(`${s.mode} (load average ${s.load1_before} → ${s.load1_after})`, ['workers', 'req_per_s', ...(values.rate ? ['dropped', 'corrected_p99_ms'] : []), 'cpu_s', 'cpu_us_per_req', 'wall_s', 'peak_rss_mb'], s.medians);
  }
}
