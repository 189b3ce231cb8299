import { describe, expect, it } from 'vitest';
import { lnGamma, studentTCdf, studentTQuantile } from './student-t.js';

describe('Student t', () => {
  it('matches tabulated two-sided 95% and 99% critical values', () => {
    const table: [number, number, number][] = [
      [1, 12.7062, 63.6567], [2, 4.3027, 9.9248], [3, 3.1824, 5.8409], [4, 2.7764, 4.6041],
      [10, 2.2281, 3.1693], [30, 2.0423, 2.75], [1000, 1.9623, 2.5808],
    ];
    for (const [df, t95, t99] of table) {
      expect(studentTQuantile(0.975, df)).toBeCloseTo(t95, 3);
      expect(studentTQuantile(0.995, df)).toBeCloseTo(t99, 3);
    }
  });

  it('is symmetric and inverts its CDF, fractional df included', () => {
    for (const df of [1, 2.5, 7.3, 40]) {
      for (const p of [0.6, 0.9, 0.999]) {
        const t = studentTQuantile(p, df);
        expect(studentTCdf(t, df)).toBeCloseTo(p, 10);
        expect(studentTQuantile(1 - p, df)).toBeCloseTo(-t, 9);
      }
    }
    expect(studentTQuantile(0.5, 3)).toBe(0);
  });

  it('computes ln Γ of integers and halves', () => {
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });

  it('rejects impossible arguments', () => {
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(0.9, 0)).toThrow(RangeError);
  });
});
