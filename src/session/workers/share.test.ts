import { describe, expect, it } from 'vitest';
import type { PlanUnit } from '../../plan/types.js';
import { arrivalsLoop } from '../../load/kinds/arrivals/executor.js';
import type { LoopControl } from '../../runner/index.js';
import { everyNthUnit, shareOf, workerLoop, workerSegment } from './share.js';

describe('a worker\'s share', () => {
  it('splits a total so the shares add up to it', () => {
    expect([0, 1, 2].map((i) => shareOf(8, i, 3))).toEqual([3, 3, 2]);
    expect([0, 1].map((i) => shareOf(1, i, 2))).toEqual([1, 0]);
  });

  it('segments partition the starts of the run, and of a --shard, exactly', () => {
    for (const shard of [null, { index: 2, count: 3 }]) {
      const mine = (k: number): boolean => shard === null || k % shard.count === shard.index - 1;
      const taken: number[] = [];
      for (let w = 0; w < 4; w += 1) {
        const seg = workerSegment(shard, w, 4);
        for (let k = 0; k < 120; k += 1) if (k % seg.count === seg.index - 1) taken.push(k);
      }
      expect(taken.sort((a, b) => a - b)).toEqual([...Array(120).keys()].filter(mine));
    }
  });

  it('a closed loop\'s workers walk every unit of the plan once between them', () => {
    const units = Array.from({ length: 7 }, (_, index) => ({ kind: 'case', index }) as unknown as PlanUnit);
    const source = { units: () => units[Symbol.iterator]() };
    const walked = [0, 1, 2].flatMap((w) => [...{ [Symbol.iterator]: () => everyNthUnit(source, w, 3).units() }].map((u) => u.index));
    expect(walked.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('a worker\'s loop keeps the run\'s bound', () => {
  it('the shares of --max-in-flight add up to it, and a worker with no place is refused, never given one', () => {
    const load = (maxInFlight: number) => arrivalsLoop({ schedule: [][Symbol.iterator](), durationMs: 1000, maxInFlight, segment: null });
    const control: LoopControl = { push: () => undefined, setRetryDeadline: () => undefined };
    const shares = [0, 1, 2].map((w) => workerLoop(load(3), w, 3).executor(control).maxInFlight());
    expect(shares.reduce((a, b) => a + b)).toBe(3);
    expect(() => workerLoop(load(1), 1, 2)).toThrow(/more workers than --max-in-flight has places/);
  });
});
