// Credits per request as a distribution: exact count, sum, min and max; HDR percentiles capped at the max.
import { describe, expect, it } from 'vitest';
import { toUnits } from '../credits/units.js';
import { createCreditDistribution } from './credit-distribution.js';

describe('createCreditDistribution', () => {
  it('is null until a request is recorded', () => {
    expect(createCreditDistribution().readout()).toBeNull();
  });

  it('sums exactly in 1e-5 units and reads percentiles to 3 significant digits', () => {
    const credits = createCreditDistribution();
    for (let i = 1; i <= 100; i++) credits.recordUnits(toUnits(i * 0.00123));
    credits.recordUnits(0);
    const readout = credits.readout()!;
    expect(readout).toMatchObject({ count: 101, min: 0, max: 0.123 });
    expect(readout.sum).toBe(6.2115);
    expect(readout.mean).toBeCloseTo(6.2115 / 101, 12);
    // The 96th of 101 values is 95 × 0.00123 = 11,685 units; HDR's bucket there is 8 units wide
    // (11,680–11,687), so p(95) reads its top.
    expect(readout.percentile(95)).toBe(0.11687);
    expect(readout.percentile(100)).toBe(0.123);
  });
});
