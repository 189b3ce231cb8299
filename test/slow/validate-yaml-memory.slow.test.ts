// Issue 20 item 18: peak memory for a YAML suite ≤ 150 MB + 10 × its size. `kbbench validate` of
// 100,000 one-turn threads (4.7 MB of YAML), as JSON and as text, in a child process whose peak RSS
// (getrusage's maxrss, written at its exit) is compared with that goal: a count, not a timing. The
// plan (200,000 requests) is described and printed as it is read, never held whole.
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

const THREADS = 100_000;
const MB = 1024 * 1024;

/** Writes the child's peak RSS (bytes) to PEAK_RSS_OUT when it exits. */
const PEAK_PROBE = `data:text/javascript,${encodeURIComponent("import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(process.env.PEAK_RSS_OUT, String(process.resourceUsage().maxRSS * 1024)));")}`;

function validate(suite: string, json: boolean, peakFile: string): Promise<{ code: number | null; peakMb: number }> {
  const args = ['--import', PEAK_PROBE, join(ROOT, 'dist/cli/main.js'), 'validate', suite, ...(json ? ['--json'] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, PEAK_RSS_OUT: peakFile }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, peakMb: Number(readFileSync(peakFile, 'utf8')) / MB }));
  });
}

describe('validate of a large YAML suite stays within 150 MB + 10 × its size', () => {
  const dir = tempDir('kbbench-yaml-memory-');
  const suite = join(dir, 'threads.yaml');
  const lines = ['name: many', 'models: [gpt-4o]', 'threads:'];
  for (let i = 0; i < THREADS; i += 1) lines.push(`  - id: t${i}`, `    turns: [ { prompt: q${i} } ]`);
  writeFileSync(suite, `${lines.join('\n')}\n`);
  const goalMb = 150 + (10 * statSync(suite).size) / MB;

  for (const json of [true, false]) {
    it(`validate${json ? ' --json' : ''}: 100,000 threads, 200,000 requests planned and printed`, async () => {
      const { code, peakMb } = await validate(suite, json, join(dir, `peak-${json}.txt`));
      expect(code).toBe(0);
      expect(peakMb, `peak RSS ${peakMb.toFixed(1)} MB, goal ${goalMb.toFixed(1)} MB`).toBeLessThanOrEqual(goalMb);
    }, 300_000);
  }
});
