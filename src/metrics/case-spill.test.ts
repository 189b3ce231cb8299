// Spill partitions: keys spread evenly, partial rows of one case merge into one entry, each file deleted once read.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emptyTotals } from './case-entry.js';
import { createCaseSpill, partitionOf } from './case-spill.js';

describe('case spill', () => {
  it('spreads keys over partitions', () => {
    const counts = new Array<number>(64).fill(0);
    for (let i = 0; i < 64_000; i++) counts[partitionOf(`case:q-${i}`, 64)]!++;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1200);
  });

  it('merges partial rows by key, keeps the earliest start, deletes what it read', () => {
    const spill = createCaseSpill(undefined, 4);
    const place = { key: 'case:a', label: 'a', case_id: 'a', thread_id: null, turn: null };
    spill.write({ ...place, firstOffsetMs: 50 }, 'm', { ...emptyTotals(), requests: 1, passed: 1, creditUnits: 3, latencyMsSum: 10, okCount: 1, okLatencyMsSum: 10, ttfcCount: 1, ttfcMsSum: 4 });
    spill.write({ ...place, firstOffsetMs: 20 }, 'm', { ...emptyTotals(), requests: 1, failed: 1, creditUnits: 4, latencyMsSum: 5 });
    spill.write({ ...place, firstOffsetMs: 70 }, '__proto__', { ...emptyTotals(), skipped: 1 });
    const entries = [...spill.partitions()].flatMap((p) => [...p.values()]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ key: 'case:a', firstOffsetMs: 20 });
    expect(entries[0]!.cells.get('m')).toEqual({ requests: 2, passed: 1, failed: 1, errors: 0, skipped: 0, creditUnits: 7, latencyMsSum: 15, required: 0,
      notJudged: 0, okCount: 1, okLatencyMsSum: 10, ttfcCount: 1, ttfcMsSum: 4,
    });
    expect(entries[0]!.cells.get('__proto__')).toMatchObject({ skipped: 1 });
    expect(existsSync(spill.dir)).toBe(true);
    spill.dispose();
    expect(existsSync(spill.dir)).toBe(false);
  });
});
