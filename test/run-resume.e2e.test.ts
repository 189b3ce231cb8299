// Ctrl-C then --resume: nothing finished is lost, nothing is sent (or paid for) twice.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCli, runCliInProcess, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

function linesIn(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0;
}

describe('interrupt, then resume', () => {
  it('keeps every finished result, exits 3, and the resume sends only what is left', async () => {
    const out = join(tempDir(), 'run');
    const results = join(out, 'results.ndjson');
    const first = await runCli(['run', SUITE, '--out', out, '--concurrency', '2', '--latency-scale', '0.4', '--seed', '3', '--models', 'gpt-4o-mini', '--repeat', '2'], {
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
    expect(first.stdout).toContain(`--resume ${out}`);
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('interrupted');
    // Reports are written from what finished.
    expect(readJson<{ totals: { requests: number } }>(join(out, 'summary.json')).totals.requests).toBe(before.length);
    // The interrupted run keeps its time series: every finished result counted in a second of it.
    type Line = { t: number; completed: number };
    const secondsBefore = readNdjson<Line>(join(out, 'timeline.ndjson'));
    expect(secondsBefore.reduce((a, l) => a + l.completed, 0)).toBe(before.length);

    // The resume names no plan flags: the run's models and repeats come back from run.json.
    // The resume holds no signal: it runs in this process.
    const second = await runCliInProcess(['run', SUITE, '--resume', out, '--concurrency', '2', '--latency-scale', '0']);
    expect(second.code).toBe(0);
    const after = readNdjson<Sample>(results);
    expect(after).toHaveLength(14);
    expect(new Set(after.map((s) => s.item_id)).size).toBe(14);
    // The lines from before the interrupt are untouched, in place.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.every((s) => s.model === 'gpt-4o-mini')).toBe(true);
    expect(after.map((s) => s.repeat).sort()).toEqual([...Array(7).fill(1), ...Array(7).fill(2)]);
    // Every thread finished, in order; a half-done one was rebuilt in a fresh conversation (the
    // embedded service of the first run is gone) and went on from its next turn.
    expect(after.every((s) => s.outcome === 'ok')).toBe(true);
    for (const repeat of [1, 2]) {
      const turns = after.filter((s) => s.thread_id === 'plans' && s.repeat === repeat);
      expect(turns.map((t) => t.turn).sort()).toEqual([1, 2, 3]);
    }
    const run = readJson<{ status: string }>(join(out, 'run.json'));
    expect(run.status).toBe('completed');
    // The resume appends its own seconds after the first run's.
    const seconds = readNdjson<Line>(join(out, 'timeline.ndjson'));
    expect(seconds.slice(0, secondsBefore.length)).toEqual(secondsBefore);
    expect(seconds.reduce((a, l) => a + l.completed, 0)).toBe(14);
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
