// Ctrl-C then --resume: nothing finished is lost, nothing is sent (or paid for) twice.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

function linesIn(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0;
}

describe('interrupt, then resume', () => {
  it('keeps every finished result, exits 3, and the resume sends only what is left', async () => {
    const out = join(tempDir(), 'run');
    const results = join(out, 'results.ndjson');
    const first = await runCli(['run', SUITE, '--out', out, '--concurrency', '2', '--latency-scale', '0.4', '--seed', '3'], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (linesIn(results) >= 3) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
        child.once('exit', () => clearInterval(poll));
      },
    });
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/SIGINT/);
    const before = readNdjson<Sample>(results);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.length).toBeLessThan(14);
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('interrupted');
    // Reports are written from what finished.
    expect(readJson<{ totals: { requests: number } }>(join(out, 'summary.json')).totals.requests).toBe(before.length);

    const second = await runCli(['run', SUITE, '--resume', out, '--concurrency', '2', '--latency-scale', '0', '--seed', '3']);
    expect(second.code).toBe(0);
    const after = readNdjson<Sample>(results);
    expect(after).toHaveLength(14);
    expect(new Set(after.map((s) => s.item_id)).size).toBe(14);
    // The lines from before the interrupt are untouched, in place.
    expect(after.slice(0, before.length)).toEqual(before);
    // A half-done thread continued in its own conversation.
    for (const model of ['gpt-4o', 'gpt-4o-mini']) {
      const turns = after.filter((s) => s.thread_id === 'plans' && s.model === model);
      expect(turns.map((t) => t.turn).sort()).toEqual([1, 2, 3]);
      expect(new Set(turns.map((t) => t.conversation_id)).size).toBe(1);
    }
    const run = readJson<{ status: string }>(join(out, 'run.json'));
    expect(run.status).toBe('completed');
  });

  it('a second signal aborts at once and still loses no written line', async () => {
    const out = join(tempDir(), 'run');
    const results = join(out, 'results.ndjson');
    const r = await runCli(['run', SUITE, '--out', out, '--concurrency', '3', '--latency-scale', '1.5'], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (linesIn(results) >= 1) {
            clearInterval(poll);
            child.kill('SIGINT');
            setTimeout(() => child.kill('SIGINT'), 50);
          }
        }, 20);
        child.once('exit', () => clearInterval(poll));
      },
    });
    expect(r.code).toBe(3);
    const lines = readFileSync(results, 'utf8');
    expect(lines.endsWith('\n')).toBe(true);
    for (const line of lines.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('interrupted');
  });
});
