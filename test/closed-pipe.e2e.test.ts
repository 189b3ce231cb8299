// A closed stdout/stderr (`kbbench run … 2>&1 | head -1`) stops the printing, never the run: it
// finishes, writes its reports and exits with its verdict's code (issue 20, item 1).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, readJson, ROOT, tempDir } from './helpers.js';

/** The CI idiom itself, through bash and a real `head`: what bash's PIPESTATUS says kbbench exited with. */
function runThroughHead(args: string): { code: number; printed: string } {
  const script = `node ${CLI} ${args} 2>&1 | head -1; echo "exit=\${PIPESTATUS[0]}"`;
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, KBBENCH_API_KEY: '', KBBENCH_BASE_URL: '' }, timeout: 180_000 });
  const code = /exit=(\d+)/.exec(r.stdout)?.[1];
  return { code: Number(code), printed: r.stdout };
}

function lines(path: string): number {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
}

describe('a closed pipe', () => {
  it('a passing run read through `| head -1` still sends all 135 requests, completes and exits 0', () => {
    const out = join(tempDir(), 'run');
    const r = runThroughHead(`run suites/demo.yaml --repeat 3 --latency-scale 0.05 --out ${out}`);
    expect(r.printed.split('\n').filter(Boolean)).toHaveLength(2); // head's one line, then ours
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('completed');
    expect(lines(join(out, 'results.ndjson'))).toBe(135);
    expect(readJson<{ verdict: string }>(join(out, 'summary.json')).verdict).toBe('pass');
    expect(r.code).toBe(0);
  });

  it('a failing run read through `| head -1` exits 1 (its verdict), never 0', () => {
    const out = join(tempDir(), 'run');
    const r = runThroughHead(`run test/fixtures/e2e/failing.yaml --repeat 2 --latency-scale 0.05 --out ${out}`);
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('completed');
    expect(lines(join(out, 'results.ndjson'))).toBe(24);
    expect(readJson<{ verdict: string }>(join(out, 'summary.json')).verdict).toBe('fail');
    expect(r.code).toBe(1);
  });
});
