// The case table in bounded memory: the same rows whether it stays in memory or spills to partition files.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { syntheticSamples } from '../report/test-support/synthetic-run.js';
import { createCaseStats, MAX_CASES_IN_SUMMARY, WORST_CASES_KEPT, type CaseStatsOptions } from './case-stats.js';
import type { CaseTable, CaseTableRow } from './case-table.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-case-stats-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MODELS = ['mistral-large', 'claude-sonnet-4-6', 'gpt-4o-mini'];

function finish(samples: readonly Sample[], options: CaseStatsOptions = {}) {
  const stats = createCaseStats({ spillDir: dir, ...options });
  for (const s of samples) stats.add(s);
  return stats.finish(MODELS);
}

async function allRows(table: CaseTable): Promise<CaseTableRow[]> {
  const rows: CaseTableRow[] = [];
  for (const model of table.models) for await (const row of table.rows(model)) rows.push(row);
  return rows;
}

const byKey = (a: CaseTableRow, b: CaseTableRow): number => `${a.key}|${a.model}`.localeCompare(`${b.key}|${b.model}`);

describe('createCaseStats', () => {
  const samples = syntheticSamples({ repeats: 3 });

  it('below the limit: every case in summary.json, nothing truncated, the table in memory', async () => {
    const result = finish(samples);
    expect(result.truncated).toBeNull();
    expect(result.cases.map((c) => c.label)).toEqual(['refund-window', 'shipping-times', 'escaping', 'onboarding turn 1', 'onboarding turn 2', 'onboarding turn 3']);
    expect(result.table).toMatchObject({ distinct: 6, models: MODELS });
    expect(result.table.totals('gpt-4o-mini')).toMatchObject({ tests: 6, failure: 1, error: 0, skipped: 0 });
    expect(await allRows(result.table)).toHaveLength(18);
    expect(await readdir(dir)).toEqual([]);
  });

  it('past the limit: the same rows from partition files, the worst cases kept, files gone on dispose', async () => {
    const inMemory = finish(samples);
    const spilled = finish(samples, { limit: 2, kept: 3, partitions: 4 });
    expect(spilled.truncated).toEqual({ distinct: 6, kept: 3, file: 'cases.csv' });
    // refund-window fails on gpt-4o-mini three times; onboarding turn 2 has a timeout; then the slowest.
    expect(spilled.cases.map((c) => c.label)).toContain('refund-window');
    expect(spilled.cases.map((c) => c.label)).toContain('onboarding turn 2');
    const kept = inMemory.cases.filter((c) => spilled.cases.some((k) => k.key === c.key));
    expect(spilled.cases).toEqual(kept);
    expect((await allRows(spilled.table)).sort(byKey)).toEqual((await allRows(inMemory.table)).sort(byKey));
    for (const model of MODELS) expect(spilled.table.totals(model)).toEqual(inMemory.table.totals(model));
    expect(await readdir(dir)).toHaveLength(1);
    spilled.table.dispose();
    expect(await readdir(dir)).toEqual([]);
  });

  it('deletes its partition files when discarded instead of finished', async () => {
    const stats = createCaseStats({ spillDir: dir, limit: 1 });
    for (const s of samples) stats.add(s);
    expect(await readdir(dir)).toHaveLength(1);
    stats.discard();
    expect(await readdir(dir)).toEqual([]);
  });

  it('bounds summary.json at 25,000 distinct cases with the default limits', async () => {
    const base = samples[0]!;
    const many = Array.from({ length: 25_000 }, (_, i): Sample => ({ ...base, item_id: `case:c${i}|model:m|r1`, case_id: `c${i}`, offset_ms: i, latency_ms: i }));
    const result = finish(many);
    expect(result.cases).toHaveLength(WORST_CASES_KEPT);
    expect(result.truncated).toEqual({ distinct: 25_000, kept: WORST_CASES_KEPT, file: 'cases.csv' });
    // None failed: the slowest are kept, listed in run order.
    expect(result.cases[0]!.key).toBe(`case:c${25_000 - WORST_CASES_KEPT}`);
    expect(result.cases.at(-1)!.key).toBe('case:c24999');
    expect(await allRows(result.table)).toHaveLength(25_000);
    expect(MAX_CASES_IN_SUMMARY).toBe(10_000);
    result.table.dispose();
    expect(await readdir(dir)).toEqual([]);
  });
});
