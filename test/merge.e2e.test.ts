// `kbbench merge` end to end: two shards of a suite run for real, merged, checked against the union of their samples.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { TIMING_METRICS, type HistogramFile } from '../src/domain/summary.js';
import { createHistogram, createTally, decodeHistogramFile, percentilesMs, recordMs } from '../src/metrics/index.js';
import { readJson, readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

interface SummaryJson {
  verdict: string;
  totals: { requests: number; ok: number; failed: number; credits_used: number };
  models: Record<string, { requests: number; credits_used: number; latency_ms: Record<string, number>; ttfc_ms: Record<string, number> }>;
}

const histogramsOf = (dir: string) => decodeHistogramFile(readJson<HistogramFile>(join(dir, 'histograms.json')));

describe('kbbench merge of two shards', () => {
  const root = tempDir();
  const shards = [join(root, 's1'), join(root, 's2')];
  const out = join(root, 'merged');
  let code: number | null;
  let samples: Sample[];

  beforeAll(async () => {
    for (const [i, dir] of shards.entries()) {
      const r = await runCli(['run', SUITE, '--shard', `${i + 1}/2`, '--latency-scale', '0', '--quiet', '--out', dir]);
      expect(r.code).toBe(0);
    }
    const r = await runCli(['merge', ...shards, '--out', out]);
    code = r.code;
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/merged 2 runs \(1\/2, 2\/2\), histograms added/);
    samples = readNdjson<Sample>(join(out, 'results.ndjson'));
  });

  it('holds every planned item exactly once', async () => {
    expect(code).toBe(0);
    const plan = JSON.parse((await runCli(['validate', SUITE, '--json'])).stdout) as { requests: { id: string; endpoint: string }[] };
    const planned = plan.requests.filter((r) => r.endpoint !== 'create').map((r) => r.id).sort();
    expect(samples.map((s) => s.item_id).sort()).toEqual(planned);
    const fromShards = shards.flatMap((dir) => readNdjson<Sample>(join(dir, 'results.ndjson')));
    expect(fromShards.map((s) => s.item_id).sort()).toEqual(planned);
    // Each shard had part of the plan, not all of it.
    for (const dir of shards) expect(readNdjson<Sample>(join(dir, 'results.ndjson')).length).toBeLessThan(planned.length);
  });

  it('sums the shards in summary.json and run.json', () => {
    const [a, b] = shards.map((dir) => readJson<SummaryJson>(join(dir, 'summary.json')));
    const merged = readJson<SummaryJson>(join(out, 'summary.json'));
    expect(merged.verdict).toBe('pass');
    for (const key of ['requests', 'ok', 'failed'] as const) expect(merged.totals[key]).toBe(a!.totals[key] + b!.totals[key]);
    expect(merged.totals.credits_used).toBeCloseTo(a!.totals.credits_used + b!.totals.credits_used, 5);
    const run = readJson<{ status: string; run_id: string; plan: { requests: number }; shards: { shard: string }[] }>(join(out, 'run.json'));
    const runs = shards.map((dir) => readJson<{ run_id: string; plan: { requests: number } }>(join(dir, 'run.json')));
    expect(run.status).toBe('completed');
    expect(run.plan.requests).toBe(runs[0]!.plan.requests + runs[1]!.plan.requests);
    expect(runs.map((r) => r.run_id)).not.toContain(run.run_id);
    expect(run.shards.map((s) => s.shard)).toEqual(['1/2', '2/2']);
  });

  it('merges the shards’ timelines on wall-clock seconds: every start and result counted once', () => {
    type Line = { t: number; starts: number; completed: number; passed: number; failed: number; latency_ms: { count: number } | null };
    const merged = readNdjson<Line>(join(out, 'timeline.ndjson'));
    const shardLines = shards.flatMap((dir) => readNdjson<Line>(join(dir, 'timeline.ndjson')));
    const sum = (lines: Line[], f: (l: Line) => number): number => lines.reduce((a, l) => a + f(l), 0);
    expect(merged.map((l) => l.t)).toEqual([...new Set(shardLines.map((l) => l.t))].sort((a, b) => a - b));
    expect(sum(merged, (l) => l.starts)).toBe(sum(shardLines, (l) => l.starts));
    expect(sum(merged, (l) => l.completed)).toBe(samples.filter((s) => s.outcome !== 'skipped').length);
    expect(sum(merged, (l) => l.latency_ms?.count ?? 0)).toBe(samples.filter((s) => s.outcome === 'ok').length);
  });

  it('adds the histograms exactly: counts sum, percentiles equal those of all samples', () => {
    const merged = histogramsOf(out);
    const parts = shards.map(histogramsOf);
    const summary = readJson<SummaryJson>(join(out, 'summary.json'));
    for (const model of ['gpt-4o', 'gpt-4o-mini']) {
      for (const metric of TIMING_METRICS) {
        const count = (set: typeof merged) => set.get(model)?.get(metric)?.totalCount ?? 0;
        expect(count(merged), `${model} ${metric}`).toBe(count(parts[0]!) + count(parts[1]!));
      }
      for (const metric of ['latency_ms', 'ttfc_ms'] as const) {
        const direct = createHistogram();
        const tally = createTally();
        for (const s of samples) if (s.model === model && s.outcome === 'ok') recordMs(direct, s[metric], tally);
        expect(direct.totalCount).toBeGreaterThan(0);
        expect(percentilesMs(merged.get(model)!.get(metric)!), `${model} ${metric}`).toEqual(percentilesMs(direct));
        // summary.json adds the exact max and mean of the samples (and caps percentiles at that max).
        const expected = percentilesMs(direct, tally);
        expect(summary.models[model]![metric]).toMatchObject({ p50: expected!.p50, p95: expected!.p95, p99: expected!.p99, max: expected!.max, mean: expected!.mean });
      }
    }
  });

  it('refuses the same run twice, or an overlapping copy, naming the directories (exit 2)', async () => {
    const twice = await runCli(['merge', shards[0]!, shards[0]!, '--out', join(root, 'twice')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`${shards[0]} is given twice`);
    const copy = join(root, 's1-copy');
    cpSync(shards[0]!, copy, { recursive: true });
    const overlap = await runCli(['merge', shards[0]!, copy, '--out', join(root, 'overlap')]);
    expect(overlap.code).toBe(2);
    expect(overlap.stderr).toMatch(new RegExp(`in both ${shards[0]} and ${copy}`));
  });

  it('refuses shards of different suites unless --force', async () => {
    const other = join(root, 's2-other');
    cpSync(shards[1]!, other, { recursive: true });
    const runJson = join(other, 'run.json');
    const run = JSON.parse(readFileSync(runJson, 'utf8')) as { suite: { sha256: string } };
    run.suite.sha256 = 'f'.repeat(64);
    writeFileSync(runJson, JSON.stringify(run));
    const refused = await runCli(['merge', shards[0]!, other, '--out', join(root, 'mixed')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/different suites; --force/);
    const forced = await runCli(['merge', shards[0]!, other, '--out', join(root, 'mixed'), '--force', '--json']);
    expect(forced.code).toBe(0);
    expect((JSON.parse(forced.stdout) as SummaryJson).totals.requests).toBe(samples.length);
  });
});
