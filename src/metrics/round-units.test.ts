import { describe, expect, it } from 'vitest';
import { roundToUnits } from './round-units.js';

describe('roundToUnits (issue 33, item 7)', () => {
  it('rounds credits to 1e-5 and milliseconds to 1e-3, leaving p-values, rates and counts alone', () => {
    const out = roundToUnits({
      totals: { credits_used: 0.022234499999999997, duration_ms: 12_203.456789, pass_rate: 0.333333333, requests: 45 },
      models: { m: { ttfc_ms: { p50: 913.1234567 }, credits_per_request: 0.0240666666 } },
      model_pairs: [{ credits_per_answer: { difference: -0.0073333333, p_value: 0.0000123456, ci95: [-0.011111111, -0.00344444] } }],
    });
    expect(out.totals).toEqual({ credits_used: 0.02223, duration_ms: 12_203.457, pass_rate: 0.333333333, requests: 45 });
    expect(out.models.m).toEqual({ ttfc_ms: { p50: 913.123 }, credits_per_request: 0.02407 });
    expect(out.model_pairs[0]!.credits_per_answer).toEqual({ difference: -0.00733, p_value: 0.0000123456, ci95: [-0.01111, -0.00344] });
  });
});
