// The runner holds what is in flight, never the plan: 200,000 requests through a real loopback server,
// the harness in its own process, heap measured after a forced GC once warm and again at the end.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const UNITS = 200_000;

function runHarness(): Promise<{ planned: number; done: number; passed: number; warm_mb: number; end_mb: number; marks_mb: number[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', join(ROOT, 'test/fixtures/memory/harness.mjs'), ROOT, String(UNITS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`harness exited ${code}: ${out}`))));
  });
}

describe('memory follows what is in flight', () => {
  it('runs a 200,000-request plan with the heap after warm-up growing by less than 8 MB', async () => {
    const r = await runHarness();
    expect(r.planned).toBe(UNITS);
    expect(r.done).toBe(UNITS);
    expect(r.passed).toBe(UNITS);
    // A plan held as items, or tasks queued up front, would add hundreds of MB; in-flight state is a few.
    expect(r.end_mb - r.warm_mb).toBeLessThan(8);
    for (const mark of r.marks_mb) expect(mark - r.warm_mb).toBeLessThan(8);
  }, 300_000);
});
