// Bench j: `kbbench history` over 1,000 run directories (a year of daily CI runs, three a day) —
// the wall time and the peak RSS of the whole process, and whether the planted change is found.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './lib/proc.mjs';
import { printMethod, printTable, round } from './lib/stats.mjs';
import { seeded } from './lib/synthetic.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];
/** 12 one-time questions and a thread of 3 turns, as the demo suite: 15 per model. */
const KEYS = [...Array.from({ length: 12 }, (_, i) => `case:q${i + 1}`), 'thread:t1#1', 'thread:t1#2', 'thread:t1#3'];

const gauss = (random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const stats = (random, median) => {
  const p50 = median * Math.exp(0.05 * gauss(random));
  return { count: 15, p50, p90: p50 * 1.6, p95: p50 * 1.8, p99: p50 * 2.2, p999: p50 * 2.2, max: p50 * 2.2, mean: p50 * 1.1 };
};

/** Run i of `runs`: gpt-4o-mini loses two questions from run `changeAt` on; latencies and credits only noise. */
function writeRun(dir, i, changeAt, random) {
  mkdirSync(dir, { recursive: true });
  const runId = `run-${String(i).padStart(5, '0')}`;
  const started = new Date(Date.UTC(2026, 0, 1) + i * 8 * 3600_000).toISOString();
  const cases = KEYS.map((key) => ({
    key, label: key, case_id: key.startsWith('case:') ? key.slice(5) : null, thread_id: key.startsWith('thread:') ? 't1' : null, turn: null,
    models: Object.fromEntries(MODELS.map((m) => {
      const broken = m === 'gpt-4o-mini' && i >= changeAt && (key === 'case:q3' || key === 'case:q7');
      // One question is flaky everywhere: it fails one run in ten, at random.
      const passed = broken || (key === 'case:q11' && random() < 0.1) ? 0 : 1;
      return [m, { requests: 1, passed, failed: 1 - passed, errors: 0, skipped: 0, credits_used: 0.01, latency_ms_sum: 900 }];
    })),
  }));
  const models = Object.fromEntries(MODELS.map((m, k) => {
    const passed = cases.reduce((s, c) => s + c.models[m].passed, 0);
    return [m, {
      requests: 15, ok: 15, errors: 0, passed, failed: 15 - passed, pass_rate: passed / 15,
      ttfc_ms: stats(random, 400 + 200 * k), latency_ms: stats(random, 900 + 300 * k), credits_used: 0.2 * (k + 1) * Math.exp(0.02 * gauss(random)),
    }];
  }));
  writeFileSync(join(dir, 'run.json'), JSON.stringify({
    run_id: runId, tool: { name: 'kbbench', version: '0.1.0' }, suite: { name: 'demo', path: 'suites/demo.yaml', sha256: 'x' },
    started_at: started, finished_at: started, status: 'completed', label: `nightly ${i}`, commit: (i * 2654435761 >>> 0).toString(16).padStart(8, '0').repeat(5),
  }));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ run_id: runId, status: 'completed', verdict: 'pass', totals: {}, models, cases, cases_truncated: null }, null, 2));
  writeFileSync(join(dir, 'report.html'), '<!doctype html><title>report</title>');
}

/** `runs` run directories under `dir`, nested as CI artifacts are kept: one folder per month. */
export function writeHistoryRuns(dir, runs, changeAt) {
  const random = seeded(20261125);
  for (let i = 0; i < runs; i++) writeRun(join(dir, `m${Math.floor(i / 90)}`, `run-${i}`), i, changeAt, random);
}

export async function benchHistory({ quick = false } = {}) {
  const runs = quick ? 200 : 1000;
  const changeAt = Math.floor(runs * 0.7);
  const root = mkdtempSync(join(tmpdir(), 'kbbench-history-bench-'));
  try {
    writeHistoryRuns(join(root, 'runs'), runs, changeAt);
    printMethod(`${runs} synthetic run directories (run.json, summary.json, a report.html; 3 models × 15 questions), nested by month; one process of \`kbbench history\` measured: wall time, and peak RSS of its process tree (sampled every 50 ms). gpt-4o-mini loses two questions at run ${changeAt}; one question fails at random one run in ten.`);
    const out = join(root, 'site');
    const r = await measure(process.execPath, [CLI, 'history', join(root, 'runs'), '--out', out, '--quiet']);
    if (r.code !== 0) throw new Error(`history exited ${r.code}: ${r.stderr}`);
    const json = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'));
    const passRate = json.change_points.filter((c) => c.metric === 'pass_rate');
    const row = {
      runs, wall_s: round(r.wall_ms / 1000, 2), cpu_s: round(r.cpu_s, 2), peak_rss_mb: round(r.peak_rss_mb, 1),
      html_mb: round(readFileSync(join(out, 'history.html')).length / 1024 / 1024, 2),
      change_points: json.change_points.length,
      found: passRate.map((c) => `${c.model}@${c.run_id}`).join(' ') || 'none',
      flaky: json.flaky.length,
    };
    printTable('kbbench history: 1,000 run directories', Object.keys(row), [row]);
    return { row, goal: { wall_s: 10, peak_rss_mb: 200 } };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHistory({ quick: process.argv.includes('--quick') });
