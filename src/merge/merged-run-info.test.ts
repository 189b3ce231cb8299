import { RecordedRunConfigSchema } from '../domain/run-config.js';
import { describe, expect, it } from 'vitest';
import type { RunInfo } from '../domain/run.js';
import { syntheticRunInfo } from '../report/test-support/synthetic-run.js';
import { checkShardSet, mergedRunInfo, mergedStatus, startShiftsMs } from './merged-run-info.js';

const shard = (index: number | null, count: number, patch: Partial<RunInfo> = {}): RunInfo => ({
  ...syntheticRunInfo('/r'), config: RecordedRunConfigSchema.parse(index === null ? { placement: { workers: 1 } } : { placement: { shard: { index, count }, workers: 1 }, outputs: { outDir: '/x' } }), ...patch,
});

describe('merged run.json', () => {
  it('is completed only when every shard completed; the least complete status wins', () => {
    expect(mergedStatus(['completed', 'completed'])).toBe('completed');
    expect(mergedStatus(['completed', 'budget-exhausted'])).toBe('budget-exhausted');
    expect(mergedStatus(['budget-exhausted', 'interrupted'])).toBe('interrupted');
    expect(mergedStatus(['running', 'completed'])).toBe('interrupted');
    expect(mergedStatus(['interrupted', 'failed'])).toBe('failed');
  });

  it('spans from the earliest start to the latest finish, summing plans and dropping per-shard options', () => {
    const runs = [
      { dir: '/s2', run: shard(2, 2, { started_at: '2025-11-22T01:43:05.000Z', finished_at: '2025-11-22T01:43:30.000Z', dropped: 2 }), lines: 5 },
      { dir: '/s1', run: shard(1, 2, { finished_at: null, thresholds: { ttfc_ms: ['p(95)<2000'], pass_rate: ['rate>=0.9'] } }), lines: 7 },
    ];
    const info = mergedRunInfo(runs, '1.2.3', '2025-11-22T02:00:00.000Z');
    expect(info).toMatchObject({
      started_at: '2025-11-22T01:43:00.000Z', finished_at: '2025-11-22T01:43:30.000Z', duration_ms: 30_000, dropped: 2,
      plan: { items: 12, requests: 108, threads: 2 }, thresholds: { ttfc_ms: ['p(95)<2000'], pass_rate: ['rate>=0.9'] },
      config: { placement: { workers: 1 }, record: { mergedFrom: ['/s2', '/s1'] } },
    });
    expect(info.config.placement).not.toHaveProperty('shard');
    expect(info.config.outputs).not.toHaveProperty('outDir');
    expect(info.shards.map((s) => [s.run_dir, s.shard, s.requests])).toEqual([['/s2', '2/2', 5], ['/s1', '1/2', 7]]);
    expect(startShiftsMs(runs.map((r) => r.run))).toEqual([5000, 0]);
  });

  it('keeps the one plan of open-loop segments (--rate with --shard), their starts and requests added up', () => {
    // Each segment holds the whole plan's items and threads, and its own share of the starts (runner/segment.ts).
    const segment = (index: number): RunInfo => {
      const base = shard(index, 3);
      return { ...base, plan: { ...base.plan, requests: 10 + index, starts: 7 + index }, config: RecordedRunConfigSchema.parse({ placement: { shard: { index, count: 3 } } }),
        load: { spec: { kind: 'arrivals', rate: { kind: 'constant', ratePerS: 30, durationMs: 2000 }, arrival: 'constant', maxInFlight: 64 } } };
    };
    const runs = [1, 2, 3].map((i) => ({ dir: `/s${i}`, run: segment(i), lines: 20 }));
    const plan = mergedRunInfo(runs, '1.2.3', '2025-11-22T02:00:00.000Z').plan;
    expect(plan).toEqual({ ...runs[0]!.run.plan, requests: 11 + 12 + 13, starts: 8 + 9 + 10 });
  });

  it('refuses a missing shard (unless --allow-partial), mixed splits, a shard twice, shards and whole runs mixed', () => {
    const set = (runs: RunInfo[], allowPartial = false) => checkShardSet(runs.map((run, i) => ({ dir: `/s${i}`, run })), allowPartial);
    expect(() => set([shard(1, 3), shard(3, 3)])).toThrow(/shard 2\/3 of 3 missing.*--allow-partial/);
    expect(set([shard(1, 3), shard(3, 3)], true)).toEqual(['2/3']);
    expect(set([shard(1, 2), shard(2, 2)])).toEqual([]);
    expect(() => set([shard(1, 2), shard(2, 3)])).toThrow(/different splits/);
    expect(() => set([shard(1, 2), shard(1, 2)])).toThrow(/shard 1\/2 is given twice/);
    expect(() => set([shard(1, 2), shard(null, 1)])).toThrow(/not a shard/);
    expect(set([shard(null, 1), shard(null, 1)])).toEqual([]);
  });

  it('refuses shards that disagree on the plan, naming the flag and both values', () => {
    const set = (runs: RunInfo[]) => checkShardSet(runs.map((run, i) => ({ dir: `/s${i}`, run })), true);
    const other = shard(2, 2);
    expect(() => set([shard(1, 2), { ...other, config: { ...other.config, plan: { ...other.config.plan, repeat: 3 } } }])).toThrow(/\/s0 and \/s1 were run with different plans \(--repeat null vs 3\)/);
    expect(() => set([shard(1, 2), { ...other, config: { ...other.config, plan: { ...other.config.plan, models: ['gpt-5'] } } }])).toThrow(/--models/);
  });

  it('a partial merge is never completed (verdict incomplete) and says what is missing', () => {
    const info = mergedRunInfo([{ dir: '/s1', run: shard(1, 3), lines: 3 }], '1.2.3', '2025-11-22T02:00:00.000Z', ['2/3', '3/3']);
    expect(info.status).toBe('interrupted');
    expect(info.stop_reason).toMatch(/--allow-partial: shards 2\/3, 3\/3 missing/);
  });
});
