// timeline.ndjson: an open-loop run writes a line per wall-clock second whose counts add up to the
// run's; summary.json's stages come from it; `kbbench report` rebuilds them from results when it is gone.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../src/domain/summary.js';
import type { TimelineLine } from '../src/domain/timeline.js';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

describe('the timeline of an open-loop run', () => {
  let serve: ServeHandle;
  const out = join(tempDir(), 'run');
  let stderr = '';
  let stdout = '';
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0']);
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '10', '--duration', '3s'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(0);
    stderr = r.stderr;
    stdout = r.stdout;
  });
  afterAll(() => serve.stop());

  it('has one line per second, in order, whose counts add up to the results and the planned starts', () => {
    const lines = readNdjson<TimelineLine>(join(out, 'timeline.ndjson'));
    const results = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.outcome !== 'skipped');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    lines.forEach((l, i) => i > 0 && expect(l.t).toBe(lines[i - 1]!.t + 1));
    const sum = (f: (l: TimelineLine) => number): number => lines.reduce((a, l) => a + f(l), 0);
    expect(sum((l) => l.starts) + sum((l) => l.dropped)).toBe(30);
    expect(sum((l) => l.completed)).toBe(results.length);
    expect(sum((l) => l.passed) + sum((l) => l.failed)).toBe(results.length);
    expect(sum((l) => l.target_rate ?? 0)).toBeCloseTo(30, 0);
    expect(lines.at(-1)!.in_flight).toBe(0);
    expect(lines.some((l) => l.loop_delay_p99_ms !== null)).toBe(true);
    expect(sum((l) => l.latency_ms?.count ?? 0)).toBe(results.filter((s) => s.outcome === 'ok').length);
  });

  it('gives summary.json its stage, the console its live line and stage table', () => {
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.stages).toHaveLength(1);
    expect(summary.stages![0]).toMatchObject({ from_rate: 10, to_rate: 10, starts: 30, dropped: 0, errors: 0, pass_rate: 1 });
    expect(summary.stages![0]!.corrected_latency_ms!.p95).toBeGreaterThan(0);
    expect(summary.knee).toBeNull();
    expect(summary.harness).toMatchObject({ loop_delay_limit_ms: 100 });
    // The target is the schedule's own now; the rest is labelled as the trailing seconds' mean.
    expect(stderr).toMatch(/live: \d+s · target now [\d.]+\/s · last \d+s: achieved [\d.]+\/s, corrected p95 [^,]+, TTFC p95 [^,]+, \d+ errors · in flight \d+\/64/);
    expect(stderr).toMatch(/load: 30 planned starts over 3s, at most 64 in flight \(--max-in-flight, default/);
    expect(stdout).toMatch(/stage +target\/s +starts +achieved\/s +dropped/);
  });

  it('`kbbench report` rebuilds what results.ndjson can tell when timeline.ndjson is gone', async () => {
    const before = readJson<Summary>(join(out, 'summary.json'));
    rmSync(join(out, 'timeline.ndjson'));
    const r = await runCli(['report', out]);
    expect(r.code, r.stderr).toBe(0);
    const after = readJson<Summary>(join(out, 'summary.json'));
    expect(after.stages![0]!.starts).toBe(30);
    expect(after.stages![0]!.requests).toBe(before.stages![0]!.requests);
    expect(after.stages![0]!.pass_rate).toBe(1);
  });
});
