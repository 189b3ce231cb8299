// `run --baseline --confirm N` end to end: a flip that the re-asks confirm fails the run, and what they said is recorded.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../src/compare/types.js';
import { demoWorkspaceWithRefundWindowChanged, readJson, runCliInProcess as runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/compare/suite.yaml';
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];
const FAST = ['--latency-scale', '0', '--quiet'];
const root = tempDir('kbbench-confirm-e2e-');
const dir = (name: string): string => join(root, name);

/** refund-window then fails on every model. */
const changedWorkspace = (): string => demoWorkspaceWithRefundWindowChanged(dir('workspace'));

describe('kbbench run --baseline --confirm', () => {
  beforeAll(async () => {
    const base = await runCli(['run', SUITE, '--out', dir('base'), '--seed', '1', ...FAST]);
    expect(base.code, base.stderr).toBe(0);
  }, 120_000);

  it('re-asks each flipped item N times; flips the re-asks confirm fail the run', async () => {
    // Only the regressions gate: with instant answers, timings are the machine's noise, not the service's.
    const r = await runCli(['run', SUITE, '--workspace', changedWorkspace(), '--baseline', dir('base'), '--out', dir('head'), '--seed', '1', '--confirm', '2', '--fail-on', 'regressions', ...FAST]);
    expect(r.code, r.stderr).toBe(1);
    const c = readJson<Comparison>(dir('head/compare.json'));
    expect(c.confirm).toMatchObject({ repeats: 2, dir: dir('head/confirm') });
    expect(c.confirm!.items.map((i) => i.item_id).sort()).toEqual(MODELS.map((m) => `case:refund-window|model:${m}`));
    for (const item of c.confirm!.items) expect(item).toMatchObject({ reasks: 2, passed: 0, verdict: 'confirmed' });
    expect(c.reasons).toEqual(['3 regressions (pass → fail)']);
    // The re-asks are a run of their own: only the flipped case, only its models, N times each.
    const confirmRun = readJson<{ plan: { requests: number } }>(dir('head/confirm/run.json'));
    expect(confirmRun.plan.requests).toBe(3 * 2);
    expect(existsSync(dir('head/confirm/results.ndjson'))).toBe(true);
  }, 180_000);

  it('exits 2 before sending anything when --confirm has no --baseline or is not a count', async () => {
    const a = await runCli(['run', SUITE, '--confirm', '2', '--out', dir('no-baseline'), ...FAST]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--confirm');
    const b = await runCli(['run', SUITE, '--baseline', dir('base'), '--confirm', '0', '--out', dir('zero'), ...FAST]);
    expect(b.code).toBe(2);
    expect(existsSync(dir('zero/results.ndjson'))).toBe(false);
  });
});
