// Quick mode of peers-throughput for iterating on the hot path: the instant server, JSON answers (or
// streamed with --stream), kbbench beside the bare undici loop in alternating rounds, CPU per request.
//   node bench/tp-quick.mjs [--rounds 3] [--repeat 60] [--stream] [--node-args "--cpu-prof ..."]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load1, median, PROMPT, runBare, runKbbench, startKbServer, writeSuite } from './lib/whole.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};
const rounds = Number(arg('--rounds', 3));
const repeat = Number(arg('--repeat', 60));
const streaming = process.argv.includes('--stream');
const C = 32;
const dir = mkdtempSync(join(tmpdir(), 'kbbench-tp-quick-'));
const suite = writeSuite(dir, 'tp', Array.from({ length: 100 }, (_, i) => ({ id: `c${i}`, prompt: PROMPT })));
const server = await startKbServer('instant');
const rows = [];
try {
  for (let r = 0; r < rounds; r++) {
    const l = load1();
    const flags = ['--concurrency', String(C), '--repeat', String(repeat), '--retries', '0', ...(streaming ? [] : ['--no-stream'])];
    const kb = await runKbbench({ suite, origin: server.origin, outDir: join(dir, `kb-${r}`), flags });
    const t = kb.summary.totals;
    const kbRps = (t.requests / t.duration_ms) * 1000;
    const bare = await runBare({ origin: server.origin, concurrency: C, streaming, prompt: PROMPT, durationMs: 3000 });
    const bareRps = (bare.result.requests / bare.result.elapsed_ms) * 1000;
    const row = {
      load1: l, kb_rps: Math.round(kbRps), bare_rps: Math.round(bareRps), ratio: +(kbRps / bareRps).toFixed(3),
      kb_cpu_s: kb.proc.cpu_s, kb_cpu_us_req: Math.round((kb.proc.cpu_s * 1e6) / t.requests), bare_cpu_us_req: Math.round((bare.proc.cpu_s * 1e6) / bare.result.requests),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  console.log('median ratio', median(rows.map((r) => r.ratio)), 'median kb rps', median(rows.map((r) => r.kb_rps)), 'median bare rps', median(rows.map((r) => r.bare_rps)));
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
