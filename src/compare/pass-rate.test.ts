// compare's pass rate: paired over matched items, a drop fails only when significant beyond --tolerance; flaky flips are noise.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { compareRuns } from './compare-runs.js';
import { DEFAULT_COMPARE_OPTIONS } from './options.js';
import { sample, writeRun } from '../test-support/fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'kbbench-pass-rate-'));
let counter = 0;

/** `items` cases, `repeats` each; `passes(i, r)` says which answers pass. */
function run(items: number, repeats: number, passes: (i: number, r: number) => boolean): string {
  const samples: Sample[] = [];
  for (let i = 0; i < items; i++) for (let r = 1; r <= repeats; r++) samples.push(sample({ caseId: `c${i}`, repeat: r, pass: passes(i, r) }));
  return writeRun(join(root, `run-${counter++}`), samples);
}

const options = { ...DEFAULT_COMPARE_OPTIONS, failOn: ['regressions' as const] };

describe('compare pass_rate', () => {
  it('one flipped answer of a stable question fails, while the pass rate shows no significant change', async () => {
    const c = await compareRuns(run(40, 1, () => true), run(40, 1, (i) => i !== 3), options);
    expect(c.pass_rate).toMatchObject({ items: 40, base: 1, head: 0.975, difference: -0.025, verdict: 'no_difference', method: 'tango-score' });
    expect(c.pass_rate!.ci95[0]).toBeLessThan(0);
    expect(c.verdict).toBe('fail');
    expect(c.reasons).toEqual(['1 regression (pass → fail)']);
  });

  it('a flip of a flaky question is reported as flaky and does not fail', async () => {
    // c3 passes 2 of 3 in the base and 1 of 3 in the head: a majority flip, within its noise.
    const c = await compareRuns(run(40, 3, (i, r) => i !== 3 || r < 3), run(40, 3, (i, r) => i !== 3 || r === 1), options);
    expect(c.counts.regressions).toBe(1);
    expect(c.flaky_regressions).toEqual(['case:c3|model:gpt-4o']);
    expect(c.pass_rate!.verdict).toBe('no_difference');
    expect(c.verdict).toBe('pass');
  });

  it('a real drop fails on the pass rate; --tolerance sets how large it must be', async () => {
    // Half the questions become flaky (1 of 3 passes): no stable regression, a 33-point drop.
    const base = run(40, 3, () => true);
    const head = run(40, 3, (i, r) => i % 2 === 0 || r === 1);
    const c = await compareRuns(base, head, options);
    expect(c.pass_rate).toMatchObject({ verdict: 'regressed', method: 'cluster-t' });
    expect(c.pass_rate!.difference).toBeCloseTo(-1 / 3, 3);
    expect(c.pass_rate!.p_value).toBeLessThan(0.01);
    expect(c.verdict).toBe('fail');
    expect(c.reasons[0]).toMatch(/^pass rate −33\.3%/);
    const tolerant = await compareRuns(base, head, { ...options, tolerance: 0.4 });
    expect(tolerant.pass_rate!.verdict).toBe('no_difference');
    expect(tolerant.verdict).toBe('pass');
  });
});

describe('--confirm findings', () => {
  it('a flip whose re-asks passed is flaky and no longer fails; a confirmed one still does', async () => {
    const { withConfirmed } = await import('./compare-runs.js');
    const c = await compareRuns(run(40, 1, () => true), run(40, 1, (i) => i !== 3 && i !== 5), options);
    expect(c.reasons).toEqual(['2 regressions (pass → fail)']);
    const items = [
      { item_id: 'case:c3|model:gpt-4o', reasks: 3, passed: 2, verdict: 'flaky' as const },
      { item_id: 'case:c5|model:gpt-4o', reasks: 3, passed: 0, verdict: 'confirmed' as const },
    ];
    const confirmed = withConfirmed(c, { repeats: 3, dir: 'x', items }, options);
    expect(confirmed.reasons).toEqual(['1 regression (pass → fail)']);
    expect(confirmed.flaky_regressions).toEqual(['case:c3|model:gpt-4o']);
    const allNoise = withConfirmed(c, { repeats: 3, dir: 'x', items: items.map((i) => ({ ...i, passed: 1, verdict: 'flaky' as const })) }, options);
    expect(allNoise.verdict).toBe('pass');
  });
});
