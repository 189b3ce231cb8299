// Arrivals: a ramp (--stages) and Poisson arrivals; run.json plans starts and the requests they
// imply, and summary.json reports starts/s beside requests/s. Counts, not times.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

interface RunJson { status: string; plan: { starts: number; requests: number; plan_requests: number } }
interface SummaryJson { totals: { starts: number; requests: number; starts_per_s: number; requests_per_s: number; dropped: number } }

describe('open-loop arrivals', () => {
  let serve: ServeHandle;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0']);
  });
  afterAll(() => serve.stop());

  it('a ramp starts what its stages plan, and run.json says how many requests those starts imply', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--stages', '1s:10,1s:20,1s:0', '--max-in-flight', '64', '--quiet'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(0);
    const run = readJson<RunJson>(join(out, 'run.json'));
    // 5 + 15 + 10 starts; a pass through the plan is 4 cases and a 3-turn thread (5 starts, 7 requests).
    expect(run.plan.starts).toBe(30);
    expect(run.plan.requests).toBe(6 * 7);
    expect(run.plan.plan_requests).toBe(7);
    const summary = readJson<SummaryJson>(join(out, 'summary.json'));
    expect(summary.totals.starts + summary.totals.dropped).toBe(30);
    expect(summary.totals.requests).toBeLessThanOrEqual(42);
    expect(summary.totals.starts_per_s).toBeLessThan(summary.totals.requests_per_s);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
  });

  it('Poisson arrivals with a seed repeat their schedule', async () => {
    const intended = async (): Promise<number> => {
      const out = join(tempDir(), 'run');
      const r = await runCli(
        ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '20', '--duration', '2s', '--arrival', 'poisson', '--seed', '11', '--quiet'],
        { env: { KBBENCH_API_KEY: serve.key } },
      );
      expect(r.code, r.stderr).toBe(0);
      return readJson<SummaryJson>(join(out, 'summary.json')).totals.starts + readJson<SummaryJson>(join(out, 'summary.json')).totals.dropped;
    };
    const first = await intended();
    expect(first).toBeGreaterThan(20);
    expect(await intended()).toBe(first);
  });

  it('--concurrency-stages ramps a closed loop that cycles through the plan until its stages end', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--concurrency-stages', '1s:3,1s:3', '--quiet'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(readJson<RunJson>(join(out, 'run.json')).status).toBe('completed');
    expect(samples.length).toBeGreaterThan(7); // more than one pass through the plan
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
  });

  it('--warmup: requests of the first stretch are recorded, marked, and left out of the statistics', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '10', '--duration', '2s', '--warmup', '1s', '--mix', 'shuffle', '--seed', '2', '--quiet'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.endpoint !== 'create');
    const warm = samples.filter((s) => s.warmup === true);
    expect(warm.length).toBeGreaterThan(0);
    expect(warm.length).toBeLessThan(samples.length);
    for (const s of warm) expect(s.offset_ms).toBeLessThan(1000);
    const totals = readJson<{ totals: { requests: number; skipped: number; warmup: number } }>(join(out, 'summary.json')).totals;
    expect(totals.warmup).toBe(warm.length);
    expect(totals.requests + totals.skipped + totals.warmup).toBe(samples.length);
  });

  it('bad load flags are input errors (exit 2), nothing sent', async () => {
    for (const args of [['--stages', '30s'], ['--start-rate', '3'], ['--concurrency-stages', '1s:1.5']]) {
      const r = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', join(tempDir(), 'run'), ...args], { env: { KBBENCH_API_KEY: serve.key } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
  });
});
