// A whole `kbbench run` of 200,000 requests (100 cases × --repeat 2000, JSON answers from an instant
// loopback server) keeps nothing per request past the request: the heap after a forced GC, once the
// run is warm (a tenth of results.ndjson written), grows by less than 8 MB through the rest of the
// run and its reports (written in the same process). The heap is sampled after every second of the
// run's own CPU time (test/fixtures/memory/heap-probe.mjs), so a loaded machine costs no extra GCs. Issue 21: the credits reconciliation held every
// answer's balance and item id until the report (about 12 MB at 200,000, 59 MB at 1,000,000).
// Slow (a few minutes on 2 shared cores): a file of the slow project.
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir, instantServerForFile } from '../helpers.js';

const REPEAT = 2000;
const CASES = 100;

interface Probe {
  results_bytes: number;
  heap_mb: number;
}

const server = instantServerForFile();

function runProbed(dir: string): Promise<number | null> {
  const suite = join(dir, 'memory.yaml');
  const cases = Array.from({ length: CASES }, (_, i) => `  - { id: c${i}, prompt: "Question ${i}: how long is the refund window?", assert: [ { contains: "30 days" } ] }`);
  writeFileSync(suite, `name: memory\ntarget: { board_id: mem-board, chat_id: mem-chat }\ncases:\n${cases.join('\n')}\n`);
  const out = join(dir, 'run');
  const args = [
    '--expose-gc', '--import', pathToFileURL(join(ROOT, 'test/fixtures/memory/heap-probe.mjs')).href, join(ROOT, 'dist/cli/main.js'), 'run', suite,
    '--base-url', `http://127.0.0.1:${server.port()}`, '--no-stream', '--concurrency', '32', '--repeat', String(REPEAT), '--quiet', '--out', out,
  ];
  const env = { ...process.env, KBBENCH_API_KEY: 'memory-test-key', HEAP_PROBE_OUT: join(dir, 'probe.ndjson'), HEAP_PROBE_RESULTS: join(out, 'results.ndjson') };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}

/** Non-empty lines in an NDJSON buffer, counted on the bytes (150 MB: no string of it, no array of lines). */
function lineCount(bytes: Buffer): number {
  let count = 0;
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) if (end > start) count += 1;
  return start < bytes.length ? count + 1 : count;
}

describe('a whole run keeps nothing per request', () => {
  it('runs 200,000 requests and writes every report with the heap after warm-up growing by less than 8 MB', async () => {
    const dir = tempDir('kbbench-run-memory-');
    expect(await runProbed(dir)).toBe(0);
    const resultsBytes = statSync(join(dir, 'run', 'results.ndjson')).size;
    expect(lineCount(readFileSync(join(dir, 'run', 'results.ndjson')))).toBe(CASES * REPEAT);
    const probes = readFileSync(join(dir, 'probe.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Probe);
    const warmAt = probes.findIndex((p) => p.results_bytes >= resultsBytes / 10);
    expect(warmAt).toBeGreaterThanOrEqual(0);
    const warm = probes[warmAt]!.heap_mb;
    const later = probes.slice(warmAt + 1);
    // Probes in the run and in the report phase both (the last ones see the whole file).
    expect(later.filter((p) => p.results_bytes === resultsBytes).length).toBeGreaterThan(0);
    const peak = Math.max(...later.map((p) => p.heap_mb));
    expect(peak - warm, `heap after GC: ${warm.toFixed(1)} MB warm, ${peak.toFixed(1)} MB at most later`).toBeLessThan(8);
  }, 900_000);
});
