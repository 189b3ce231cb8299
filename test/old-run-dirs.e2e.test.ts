// Run directories written before the lazy plan and the store/ redesign (kbbench 0.1.0), and before
// the typed run config (run.json schema 2) and its sections (schema 3's flat options), still resume, report and compare: these fixtures hold the proof.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';
describe.each([
  ['kbbench 0.1.0 (run.json schema 1)', 'v0.1.0-interrupted'],
  ['run.json schema 2', 'schema2-interrupted'],
  ['run.json schema 3 (flat options)', 'schema3-interrupted'],
])('a run directory written by %s', (_, fixture) => {
  const copyOfFixture = (): string => {
    const dir = join(tempDir('kbbench-old-'), 'run');
    cpSync(join(ROOT, 'test/fixtures/runs', fixture), dir, { recursive: true });
    return dir;
  };

  it('resumes, sending exactly the requests it is missing (none twice)', async () => {
    const dir = copyOfFixture();
    const before = readNdjson<Sample>(join(dir, 'results.ndjson')).map((s) => s.item_id);
    const resumed = await runCli(['run', SUITE, '--resume', dir, '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = readNdjson<Sample>(join(dir, 'results.ndjson')).map((s) => s.item_id);
    expect(after.slice(0, before.length)).toEqual(before);
    const added = after.slice(before.length).sort();
    expect(added).toEqual([
      'case:encryption|model:gpt-4o-mini|r1',
      'case:team-price|model:gpt-4o-mini|r1',
      'thread:plans|turn:2|model:gpt-4o-mini|r1',
      'thread:plans|turn:3|model:gpt-4o-mini|r1',
      'thread:plans|turn:3|model:gpt-4o|r1',
    ]);
    expect(new Set(after).size).toBe(14);
    expect(readJson<{ status: string }>(join(dir, 'run.json')).status).toBe('completed');
  });

  it('rebuilds its reports, and compares with a run of today', async () => {
    const dir = copyOfFixture();
    const report = await runCli(['report', dir]);
    // Exit 3: the run it describes was interrupted; its reports are rebuilt all the same.
    expect(report.code, report.stderr).toBe(3);
    expect(report.stdout).toContain('reports rebuilt');
    expect(readJson<{ totals: { requests: number } }>(join(dir, 'summary.json')).totals.requests).toBe(9);
    expect(readFileSync(join(dir, 'cases.csv'), 'utf8').split('\n').length).toBeGreaterThan(5);
    const head = join(tempDir('kbbench-new-'), 'run');
    const run = await runCli(['run', SUITE, '--out', head, '--latency-scale', '0', '--seed', '7', '--no-stream', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const compared = await runCli(['compare', dir, head, '--json']);
    expect(compared.stderr).not.toMatch(/Error|at .*\.js/);
    const comparison = JSON.parse(compared.stdout) as { added: { item_id: string }[]; missing: unknown[] };
    expect(comparison.missing).toEqual([]);
    expect(comparison.added.map((a) => a.item_id).sort()).toEqual([
      'case:encryption|model:gpt-4o-mini', 'case:team-price|model:gpt-4o-mini', 'thread:plans|turn:2|model:gpt-4o-mini',
      'thread:plans|turn:3|model:gpt-4o', 'thread:plans|turn:3|model:gpt-4o-mini',
    ]);
  });
});
