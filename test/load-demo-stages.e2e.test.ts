// `kbbench run suites/load-demo.yaml` with a shorter ramp than its `load:` block (a --stages flag
// replaces the suite's shape; its other keys still apply): summary.json has one entry per stage,
// and each stage's achieved starts are within 5% of what its ramp plans (counts, not times). The run
// is a child process, as a user's is: its starts must not wait on the e2e worker's own process, which
// the files before this one shared (vitest.config.ts); in-process, a stage once fell short (84 of 90).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StageSummary } from '../src/domain/load.js';
import { readJson, runCli, tempDir } from './helpers.js';

interface RunJson { plan: { starts: number }; config: { embedded: { degradeQuality?: boolean } }; load: { spec: { rate: { stages: unknown }; maxInFlight: number } } }
interface SummaryJson { stages: StageSummary[] | null; totals: { starts: number; dropped: number } }

describe('suites/load-demo.yaml, time-scaled', () => {
  it('runs a ramp whose stages start what they plan, the suite\'s load: block under the flag', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'suites/load-demo.yaml', '--stages', '3s:20,3s:40,3s:60', '--latency-scale', '0', '--out', out, '--quiet']);
    expect([0, 1], r.stderr).toContain(r.code);
    const run = readJson<RunJson>(join(out, 'run.json'));
    // 30 + 90 + 150 starts: the area under each stage's ramp.
    expect(run.plan.starts).toBe(270);
    // The flag replaced the suite's stages; max_in_flight and degrade_quality still come from the suite.
    expect(run.load.spec.rate.stages).toEqual([{ durationMs: 3000, targetPerS: 20 }, { durationMs: 3000, targetPerS: 40 }, { durationMs: 3000, targetPerS: 60 }]);
    expect(run.load.spec.maxInFlight).toBe(64);
    expect(run.config.embedded.degradeQuality).toBe(true);
    const summary = readJson<SummaryJson>(join(out, 'summary.json'));
    expect(summary.totals.starts + summary.totals.dropped).toBe(270);
    const stages = summary.stages!;
    expect(stages.map((s) => [s.from_rate, s.to_rate])).toEqual([[0, 20], [20, 40], [40, 60]]);
    for (const stage of stages) {
      const planned = ((stage.from_rate + stage.to_rate) / 2) * ((stage.end_ms - stage.start_ms) / 1000);
      // A stage's starts are counted by when they went out: on a busy 2-core machine (the whole suite at
      // once) a start up to 250 ms late lands in the next window, so a boundary may move that many
      // starts at the rate there (stage 1 once had 26 of 30 this way); the run's total is exact above.
      const boundaryMs = 250;
      const tolerance = Math.max(0.05 * planned, (Math.max(stage.from_rate, stage.to_rate) * boundaryMs) / 1000);
      expect(Math.abs(stage.starts - planned), `stage ${stage.index + 1}: ${stage.starts} starts, ${planned} planned`).toBeLessThanOrEqual(tolerance);
    }
  });
});
