import { describe, expect, it } from 'vitest';
import type { PlanUnit } from '../plan/types.js';
import { caseId } from '../plan/item-id.js';
import { mixedDraws, permutation } from './mix.js';

const unit = (i: number, weight?: number): PlanUnit => ({
  kind: 'case', index: i, ...(weight !== undefined ? { weight } : {}),
  request: { id: caseId(`c${i}`, 'm', 1), case_id: `c${i}`, thread_id: null, turn: null, model: 'm', request_model: 'm', repeat: 1, prompt: 'p', options: {}, checks: [] },
});

function source(units: (PlanUnit | null)[]) {
  return { space: units.length, unitAt: (i: number) => units[i] ?? null, units: () => units.filter((u): u is PlanUnit => u !== null).values() };
}

describe('traffic mix', () => {
  it.each([1, 2, 7, 100, 1000])('permutation of %i places is a bijection, seeded', (n) => {
    const p = permutation(n, 5);
    const seen = new Set(Array.from({ length: n }, (_, i) => p(i)));
    expect(seen.size).toBe(n);
    for (const x of seen) expect(x).toBeLessThan(n);
    if (n >= 100) expect(Array.from({ length: n }, (_, i) => p(i))).not.toEqual(Array.from({ length: n }, (_, i) => permutation(n, 6)(i)));
  });

  it('shuffle visits every unit once per pass, skipping places outside the plan', () => {
    const units = [unit(0), null, unit(2), unit(3), null, unit(5)];
    const draw = mixedDraws(source(units), { kind: 'shuffle', seed: 1, maxWeight: 1 });
    const first = Array.from({ length: 4 }, () => draw()!);
    expect(first.map((d) => d.unit.index).sort()).toEqual([0, 2, 3, 5]);
    expect(first.every((d) => d.cycle === 1)).toBe(true);
    const second = Array.from({ length: 4 }, () => draw()!);
    expect(second.map((d) => d.unit.index).sort()).toEqual([0, 2, 3, 5]);
    expect(second.every((d) => d.cycle === 2)).toBe(true);
  });

  it('weighted draws follow the weights, each draw its own item', () => {
    const units = [unit(0, 1), unit(1, 3), unit(2)];
    const draw = mixedDraws(source(units), { kind: 'weighted', seed: 9, maxWeight: 3 });
    const counts = [0, 0, 0];
    const cycles = new Set<number>();
    for (let i = 0; i < 5000; i += 1) {
      const d = draw()!;
      counts[d.unit.index]! += 1;
      cycles.add(d.cycle);
    }
    expect(cycles.size).toBe(5000);
    expect(counts[1]! / 5000).toBeCloseTo(0.6, 1);
    expect(counts[0]! / 5000).toBeCloseTo(0.2, 1);
  });
});
