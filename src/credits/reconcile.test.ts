import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BalanceSteps, MAX_GAPS } from './reconcile.js';

describe('BalanceSteps.reconcile', () => {
  it('finds nothing when every step down is the cost of the answer that made it, in any order', () => {
    const steps = new BalanceSteps();
    steps.add('b', 0.00729, 9999.96392);
    steps.add('a', 0.03608, 9999.97121);
    steps.add('c', 0.0001, 9999.96382);
    const r = steps.reconcile();
    expect(r).toMatchObject({ answers: 3, unexplained: 0, gaps: [], gaps_left_out: 0, end_remaining: 9999.96382 });
    expect(r.start_remaining).toBe(10000.00729);
  });

  it('lists a step larger than its answer as outside spend, exact to 1e-5, with the answers around it', () => {
    const steps = new BalanceSteps();
    steps.add('first', 0.1, 99.9);
    steps.add('second', 0.2, 99.7 - 0.03333);
    steps.add('third', 0.1, 99.56667);
    const r = steps.reconcile();
    expect(r.unexplained).toBe(0.03333);
    expect(r.gaps).toEqual([{ after_item: 'first', before_item: 'second', from_remaining: 99.9, to_remaining: 99.66667, expected: 0.2, amount: 0.03333 }]);
  });

  it('takes the judges\' spend out of the unexplained total, and bounds the gap list', () => {
    const steps = new BalanceSteps();
    let remaining = 1000;
    for (let i = 0; i < MAX_GAPS + 5; i += 1) {
      remaining -= 0.01 + 0.001; // each answer 0.01, then 0.001 spent elsewhere
      steps.add(`i${i}`, 0.01, Math.round(remaining * 1e5) / 1e5, 100);
    }
    const r = steps.reconcile();
    expect(r.gaps).toHaveLength(MAX_GAPS);
    expect(r.gaps_left_out).toBe(4);
    expect(r.check_credits).toBeCloseTo((MAX_GAPS + 5) * 0.001, 5);
    // 54 gaps of 0.001 between 55 answers, 55 judges of 0.001 (the first judge's spend fell before any gap): all explained.
    expect(r.unexplained).toBe(0);
  });

  it('gives the same findings from sorted runs on disk as from one sort in memory, and removes its files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-balances-test-'));
    try {
      // Two shards' answers one after the other (a merged run): balances interleave, with ties and outside spend.
      const answers: [string, number, number][] = [];
      let remaining = 5000;
      for (let i = 0; i < 600; i += 1) {
        const used = i % 7 === 0 ? 0.002 : 0.001;
        remaining -= used + (i % 50 === 0 ? 0.0005 : 0) + (i % 97 === 0 ? 0.01 * (i % 3) : 0);
        answers.push([`s${i % 2}-${i}`, used, Math.round(remaining * 1e5) / 1e5]);
        if (i % 13 === 0) answers.push([`tie-${i}`, used, Math.round(remaining * 1e5) / 1e5]);
      }
      const shuffled = [...answers.filter((_, i) => i % 2 === 0), ...answers.filter((_, i) => i % 2 === 1)];
      const inMemory = new BalanceSteps();
      const onDisk = new BalanceSteps({ spillDir: dir, runEntries: 37 });
      for (const [item, used, rem] of shuffled) {
        inMemory.add(item, used, rem, 3);
        onDisk.add(item, used, rem, 3);
      }
      expect(readdirSync(dir).filter((n) => n.startsWith('.kbbench-balances-'))).toHaveLength(1);
      const expected = inMemory.reconcile();
      expect(expected.gaps.length).toBeGreaterThan(10);
      expect(onDisk.reconcile()).toEqual(expected);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
