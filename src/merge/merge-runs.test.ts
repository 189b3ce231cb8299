import { RecordedRunConfigSchema } from '../domain/run-config.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { decodeHistogramFile, readHistogramFile } from '../metrics/histogram-file.js';
import { syntheticRunInfo, syntheticSamples } from '../report/test-support/synthetic-run.js';
import { buildReports } from '../report/build-reports.js';
import { mergeRuns } from './merge-runs.js';

const NOW = '2025-11-22T02:00:00.000Z';

async function writeShard(dir: string, samples: Sample[], patch: Partial<RunInfo>): Promise<RunInfo> {
  mkdirSync(dir, { recursive: true });
  const run = { ...syntheticRunInfo(dir), ...patch };
  writeFileSync(join(dir, 'run.json'), JSON.stringify(run));
  writeFileSync(join(dir, 'results.ndjson'), samples.map((s) => `${JSON.stringify(s)}\n`).join(''));
  await buildReports({ runDir: dir, run });
  return run;
}

async function twoShards(root: string, second: Partial<RunInfo> = {}): Promise<{ a: string; b: string; samples: Sample[] }> {
  const samples = syntheticSamples({ repeats: 2 });
  const a = join(root, 'a');
  const b = join(root, 'b');
  await writeShard(a, samples.filter((_, i) => i % 2 === 0), { config: RecordedRunConfigSchema.parse({ placement: { shard: { index: 1, count: 2 } } }), plan: { items: 9, requests: 18, threads: 3, models: ['claude-sonnet-4-6'] } });
  await writeShard(b, samples.filter((_, i) => i % 2 === 1), {
    config: RecordedRunConfigSchema.parse({ placement: { shard: { index: 2, count: 2 } } }), plan: { items: 9, requests: 18, threads: 3, models: ['gpt-4o-mini', 'claude-sonnet-4-6'] },
    run_id: 'second', started_at: '2025-11-22T01:43:02.000Z', finished_at: '2025-11-22T01:43:20.000Z', ...second,
  });
  return { a, b, samples };
}

const lines = (dir: string): Sample[] => readFileSync(join(dir, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Sample);
const base = { force: false, toolVersion: '9.9.9', nowIso: NOW };

describe('mergeRuns', () => {
  it('concatenates results, adds histograms exactly, combines run.json and rebuilds the reports', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kbbench-merge-'));
    const { a, b, samples } = await twoShards(root);
    const out = join(root, 'merged');
    const result = await mergeRuns({ ...base, runDirs: [a, b], outDir: out });
    const merged = lines(out);
    expect(merged.map((s) => s.item_id).sort()).toEqual(samples.map((s) => s.item_id).sort());
    // Shard b started 2 s after a: its offsets move onto the merged timeline.
    const fromB = merged.find((s) => s.item_id === samples[1]!.item_id)!;
    expect(fromB.offset_ms).toBeCloseTo(samples[1]!.offset_ms + 2000, 3);
    expect(result.histograms).toBe('added');
    expect(result.run).toMatchObject({
      status: 'completed', tool: { version: '9.9.9' }, plan: { items: 18, requests: 36, threads: 6, models: ['claude-sonnet-4-6', 'gpt-4o-mini'] },
      started_at: '2025-11-22T01:43:00.000Z', finished_at: '2025-11-22T01:43:20.000Z', duration_ms: 20_000, merged_at: NOW,
    });
    expect(result.run.shards.map((s) => s.shard)).toEqual(['1/2', '2/2']);
    expect(result.run.run_id).not.toMatch(/^(second|support-faq)/);
    expect(result.warnings).toEqual([]);
    for (const f of ['summary.json', 'samples.csv', 'summary.csv', 'report.html', 'junit.xml', 'run.json']) expect(existsSync(join(out, f)), f).toBe(true);
    const histograms = await Promise.all([out, a, b].map(async (dir) => decodeHistogramFile(await readHistogramFile(dir))));
    const count = (i: number, model: string) => histograms[i]!.get(model)?.get('latency_ms')?.totalCount ?? 0;
    for (const model of ['claude-sonnet-4-6', 'gpt-4o-mini', 'mistral-large']) expect(count(0, model)).toBe(count(1, model) + count(2, model));
    expect(result.summary.totals.requests).toBe(samples.filter((s) => s.outcome !== 'skipped').length);
  });

  it('refuses an item found in two runs, naming both, and writes nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kbbench-merge-'));
    const { a } = await twoShards(root);
    const copy = join(root, 'copy');
    await writeShard(copy, lines(a), {});
    const out = join(root, 'merged');
    await expect(mergeRuns({ ...base, runDirs: [a, copy], outDir: out })).rejects.toThrow(new RegExp(`in both ${a} and ${copy}`));
    await expect(mergeRuns({ ...base, runDirs: [a, a], outDir: out })).rejects.toThrow(/given twice/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses runs of different suites unless forced, and an --out that holds a run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kbbench-merge-'));
    const { a, b } = await twoShards(root, { suite: { name: 'other', path: '/x/other.yaml', sha256: 'def456' } });
    const out = join(root, 'merged');
    await expect(mergeRuns({ ...base, runDirs: [a, b], outDir: out })).rejects.toThrow(/different suites; --force/);
    const forced = await mergeRuns({ ...base, force: true, runDirs: [a, b], outDir: out });
    expect(forced.run.shards.map((s) => s.suite_sha256)).toEqual(['abc123', 'def456']);
    await expect(mergeRuns({ ...base, force: true, runDirs: [a, b], outDir: out })).rejects.toThrow(/already holds a run/);
    await expect(mergeRuns({ ...base, runDirs: [a, b], outDir: a })).rejects.toThrow(/must be a new directory/);
  });

  it('marks the merged run as incomplete when a shard is, and rebuilds histograms a shard lacks', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kbbench-merge-'));
    const { a, b } = await twoShards(root, { status: 'interrupted', stop_reason: 'interrupted by a signal' });
    writeFileSync(join(b, 'histograms.json'), '{}');
    const result = await mergeRuns({ ...base, runDirs: [a, b], outDir: join(root, 'merged') });
    expect(result.run.status).toBe('interrupted');
    expect(result.run.stop_reason).toBe(`${b}: interrupted by a signal`);
    expect(result.histograms).toBe('rebuilt');
    expect(result.warnings.join('\n')).toMatch(/rebuilt from the merged samples/);
  });
});
