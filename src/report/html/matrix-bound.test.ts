// The matrix bound: a suite with more cases than a page can hold shows problems first, whole threads, in run order.
import { describe, expect, it } from 'vitest';
import type { CaseCell, CaseSummary } from '../../domain/summary.js';
import { boundGroups, boundNote, type CaseGroup } from './matrix-bound.js';

const cell = (failed: number): CaseCell => ({ requests: 1, passed: 1 - failed, failed, errors: 0, skipped: 0, credits_used: 0, latency_ms_sum: 1 });
const row = (key: string, failed = 0): CaseSummary => ({ key, label: key, case_id: key, thread_id: null, turn: null, models: { m: cell(failed) } });
const group = (id: string, rows: CaseSummary[], threadId: string | null = null): CaseGroup => ({ id, threadId, rows });

describe('boundGroups', () => {
  it('shows everything up to the bound', () => {
    const groups = [group('a', [row('a')]), group('b', [row('b')])];
    expect(boundGroups(groups, 2)).toEqual(groups);
    expect(boundNote(groups, groups)).toBe('');
  });

  it('keeps cases with a failure first, then the rest, in run order, whole threads only', () => {
    const groups = [
      group('c1', [row('c1')]),
      group('t', [row('t1'), row('t2'), row('t3', 1)], 't'),
      group('c2', [row('c2')]),
      group('c3', [row('c3', 1)]),
      group('c4', [row('c4')]),
    ];
    expect(boundGroups(groups, 5).map((g) => g.id)).toEqual(['c1', 't', 'c3']);
    expect(boundGroups(groups, 4).map((g) => g.id)).toEqual(['t', 'c3']);
    expect(boundNote(groups, boundGroups(groups, 4))).toMatch(/^Showing 4 of 7 cases and turns: those with a failed check or a request error first/);
  });

  it('cuts a single thread longer than the bound rather than showing nothing', () => {
    const long = group('t', Array.from({ length: 40 }, (_, i) => row(`t${i}`)), 't');
    expect(boundGroups([long], 10)[0]!.rows.map((r) => r.key)).toEqual(long.rows.slice(0, 10).map((r) => r.key));
  });

  it('prefers groups whose answers the report kept, within problems and within the rest', () => {
    const groups = [group('c1', [row('c1', 1)]), group('c2', [row('c2', 1)]), group('c3', [row('c3')]), group('c4', [row('c4')])];
    const kept = new Set(['c2', 'c4']);
    expect(boundGroups(groups, 2, (g) => kept.has(g.id)).map((g) => g.id)).toEqual(['c1', 'c2']);
    expect(boundGroups(groups, 3, (g) => kept.has(g.id)).map((g) => g.id)).toEqual(['c1', 'c2', 'c4']);
  });

  it('counts every case of the run when summary.json kept only the worst', () => {
    const groups = [group('a', [row('a', 1)]), group('b', [row('b')])];
    expect(boundNote(groups, groups, 25_000)).toMatch(/^Showing 2 of 25,000 cases and turns: .* summary\.json keeps the 2 worst .* cases\.csv, samples\.csv and junit\.xml hold every one\.$/);
  });
});
