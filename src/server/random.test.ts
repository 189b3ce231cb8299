import { describe, expect, it } from 'vitest';
import { createRandom, deriveRandom, hashString, logNormal, randomInt } from './random.js';

describe('seeded randomness', () => {
  it('repeats the same sequence for the same seed and differs for another', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('derives independent streams per purpose', () => {
    expect(deriveRandom(1, 'latency')()).not.toBe(deriveRandom(1, 'faults')());
    expect(hashString('abc')).toBe(hashString('abc'));
    expect(hashString('abc', 1)).not.toBe(hashString('abc', 2));
  });

  it('draws log-normal values around the median', () => {
    const random = createRandom(7);
    const draws = Array.from({ length: 4001 }, () => logNormal(random, 500, 0.4)).sort((x, y) => x - y);
    const median = draws[2000] ?? 0;
    expect(median).toBeGreaterThan(450);
    expect(median).toBeLessThan(550);
    expect(draws[0]).toBeGreaterThan(0);
    expect(logNormal(createRandom(1), 300, 0)).toBe(300);
  });

  it('draws integers within bounds', () => {
    const random = createRandom(3);
    const values = new Set(Array.from({ length: 500 }, () => randomInt(random, 1, 5)));
    expect([...values].sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
