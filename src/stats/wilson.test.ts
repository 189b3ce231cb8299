import { describe, expect, it } from 'vitest';
import { normalQuantile, wilsonInterval } from './wilson.js';

describe('normalQuantile', () => {
  it('matches known values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
  });
});

describe('wilsonInterval', () => {
  it('matches a textbook value (8 of 10)', () => {
    const [lo, hi] = wilsonInterval(8, 10);
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
  });
  it('stays inside [0, 1] at the edges', () => {
    expect(wilsonInterval(0, 5)[0]).toBe(0);
    expect(wilsonInterval(5, 5)[1]).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});
