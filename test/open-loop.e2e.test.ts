// `--rate`: starts keep their schedule while the service stalls; lateness and dropped starts are recorded.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServiceInProcess, tempDir, type InProcessService } from './helpers.js';

describe('open loop against a stalling service', () => {
  let serve: InProcessService;
  beforeAll(async () => {
    serve = await startServiceInProcess({ latencyScale: 0, stallRate: 1, stallMs: 400 });
  });
  afterAll(() => serve.stop());

  it('records scheduled delay and corrected latency, and counts starts still waiting at the end as dropped', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '20', '--duration', '1s', '--max-in-flight', '2', '--quiet'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    // Starts the cap held back were not delivered as planned: the `dropped` gate fails the run.
    expect(r.code, r.stderr).toBe(1);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.length).toBeGreaterThan(0);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
    const late = samples.filter((s) => (s.scheduled_delay_ms ?? 0) > 100);
    expect(late.length).toBeGreaterThan(0);
    for (const s of samples) {
      expect(s.scheduled_delay_ms).toEqual(expect.any(Number));
      expect(s.corrected_latency_ms!).toBeGreaterThanOrEqual(s.latency_ms!);
      expect(s.latency_ms!).toBeGreaterThanOrEqual(400); // the stall is measured, not hidden
    }
    const summary = readJson<{ gates: { failed: string[] }; totals: { dropped: number; dropped_late: number; corrected_latency_ms: { p50: number } | null; latency_ms: { p50: number } } }>(join(out, 'summary.json'));
    expect(summary.totals.dropped).toBeGreaterThan(0);
    expect(summary.gates.failed).toContain('dropped');
    expect(summary.totals.corrected_latency_ms!.p50).toBeGreaterThan(summary.totals.latency_ms.p50);
    // Never sent (run.json, the runner's count) plus sent over 1 s late.
    expect(readJson<{ dropped: number }>(join(out, 'run.json')).dropped + summary.totals.dropped_late).toBe(summary.totals.dropped);
  });
});
