// The case table's statuses and counts: JUnit's per-model attributes come from here before any row is read.
import { describe, expect, it } from 'vitest';
import { emptyTotals, type CaseEntry } from './case-entry.js';
import { cellStatus, memoryCaseTable } from './case-table.js';

describe('case table', () => {
  it('ranks a failed check above a request error, and a skipped-only cell as skipped', () => {
    expect(cellStatus({ requests: 2, failed: 1, errors: 1, skipped: 0 })).toBe('failure');
    expect(cellStatus({ requests: 2, failed: 0, errors: 1, skipped: 0 })).toBe('error');
    expect(cellStatus({ requests: 0, failed: 0, errors: 0, skipped: 1 })).toBe('skipped');
    expect(cellStatus({ requests: 1, failed: 0, errors: 0, skipped: 1 })).toBe('passed');
  });

  it('counts per model and yields one model’s rows in order', async () => {
    const entry = (key: string, cells: Array<[string, Partial<ReturnType<typeof emptyTotals>>]>): CaseEntry => ({
      key, label: key, case_id: key, thread_id: null, turn: null, firstOffsetMs: 0, cells: new Map(cells.map(([m, t]) => [m, { ...emptyTotals(), ...t }])),
    });
    const table = memoryCaseTable([entry('a', [['x', { requests: 1, passed: 1, latencyMsSum: 5 }], ['y', { requests: 1, errors: 1 }]]), entry('b', [['x', { requests: 1, failed: 1, creditUnits: 2 }]])], ['y', 'x', 'z']);
    expect(table.models).toEqual(['y', 'x']);
    expect(table.totals('x')).toEqual({ tests: 2, passed: 1, failure: 1, error: 0, skipped: 0, latencyMsSum: 5 });
    expect(table.totals('z').tests).toBe(0);
    const rows = [];
    for await (const row of table.rows('x')) rows.push([row.key, row.cell.credits_used]);
    expect(rows).toEqual([['a', 0], ['b', 0.00002]]);
  });
});
