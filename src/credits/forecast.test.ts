import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forecastCredits, turnGrowth, workWeight, type CostObservation } from './forecast.js';
import { studentTQuantile } from './student-t.js';

const caseObs = (model: string, costs: number[]): CostObservation[] => costs.map((credits, i) => ({ model, unit: `case:${i}`, turn: null, credits }));
const threadObs = (model: string, unit: string, costs: number[]): CostObservation[] => costs.map((credits, i) => ({ model, unit, turn: i + 1, credits }));

describe('forecastCredits', () => {
  it('scales the mean cost to the planned requests with a t-interval of the mean', () => {
    const f = forecastCredits({ m: { cases: 10, threadTurns: [] } }, caseObs('m', [1, 2, 3, 4]), { level: 0.95 });
    const se = (10 * Math.sqrt(5 / 3)) / 2;
    const t = studentTQuantile(0.975, 3);
    expect(f.models.m).toMatchObject({ credits: 25, requests: 10, credits_per_request: 2.5, df: 3 });
    expect(f.models.m!.low).toBeCloseTo(25 - t * se, 4);
    expect(f.models.m!.high).toBeCloseTo(25 + t * se, 4);
    expect(f.total).toMatchObject({ credits: 25, low: f.models.m!.low, high: f.models.m!.high, requests: 10 });
  });

  it('collapses the interval when every sampled request cost the same', () => {
    const f = forecastCredits({ m: { cases: 7, threadTurns: [] } }, caseObs('m', [0.01, 0.01, 0.01]), { level: 0.99 });
    expect(f.total).toMatchObject({ credits: 0.07, low: 0.07, high: 0.07 });
  });

  it('grows later turns by their ratio to turn 1, extrapolating positions no sampled thread reached', () => {
    const obs = [...threadObs('m', 'thread:a', [1, 2]), ...threadObs('m', 'thread:b', [2, 4])];
    const growth = turnGrowth(obs, 4);
    expect(growth).toEqual([1, 2, 3, 4]);
    expect(workWeight({ cases: 2, threadTurns: [3, 1] }, growth)).toBe(2 + (1 + 2 + 3) + 1);
    // The two threads are two draws of a fresh question's cost: 1 and 2, mean 1.5.
    const f = forecastCredits({ m: { cases: 0, threadTurns: [4] } }, obs, { level: 0.95 });
    expect(f.models.m!.base_credits).toBe(1.5);
    expect(f.models.m!.credits).toBe(1.5 * 10);
    expect(f.models.m!.sample).toEqual({ units: 2, requests: 4, credits: 9 });
  });

  it('forecasts a volume of traffic by the plan\'s mix, adding the new requests\' own spread', () => {
    const planned = { a: { cases: 3, threadTurns: [] }, b: { cases: 1, threadTurns: [] } };
    const obs = [...caseObs('a', [1, 3]), ...caseObs('b', [10, 30])];
    const run = forecastCredits(planned, obs, { level: 0.9 });
    const volume = forecastCredits(planned, obs, { level: 0.9, volume: 400 });
    expect(volume.models.a!.requests).toBe(300);
    expect(volume.models.a!.credits).toBeCloseTo(run.models.a!.credits * 100, 6);
    expect(volume.total.credits).toBeCloseTo(run.total.credits * 100, 6);
    const ratio = volume.models.a!.standard_error / (run.models.a!.standard_error * 100);
    expect(ratio).toBeCloseTo(Math.sqrt(1 + 2 / 300), 4);
  });

  it('pairs models sampled on the same cases, and bounds the total otherwise', () => {
    const planned = { a: { cases: 4, threadTurns: [] }, b: { cases: 4, threadTurns: [] } };
    // b costs exactly twice a on every case: perfectly correlated, so the paired se is the sum of the two.
    const paired = forecastCredits(planned, [...caseObs('a', [1, 2, 4]), ...caseObs('b', [2, 4, 8])], { level: 0.95 });
    expect(paired.total_interval).toBe('paired');
    expect(paired.total.high - paired.total.credits).toBeCloseTo(paired.models.a!.high - paired.models.a!.credits + paired.models.b!.high - paired.models.b!.credits, 4);
    const unpaired = forecastCredits(planned, [...caseObs('a', [1, 2, 4]), { model: 'b', unit: 'case:x', turn: null, credits: 3 }, ...caseObs('b', [2, 4])], { level: 0.95 });
    expect(unpaired.total_interval).toBe('bound');
    expect(unpaired.total.high).toBeGreaterThan(unpaired.total.credits);
  });

  it('borrows the other models\' relative spread for a model sampled once, and names models with no sample', () => {
    const planned = { a: { cases: 4, threadTurns: [] }, b: { cases: 4, threadTurns: [] }, c: { cases: 2, threadTurns: [] } };
    const f = forecastCredits(planned, [...caseObs('a', [1, 3]), ...caseObs('b', [5])], { level: 0.95 });
    expect(f.models.b!.df).toBe(1);
    expect(f.models.b!.standard_error).toBeCloseTo(f.models.a!.standard_error * (5 / 2) * Math.SQRT2, 4);
    expect(f.unestimated).toEqual(['c']);
    expect(Object.keys(f.models)).toEqual(['a', 'b']);
  });

  it('keeps low ≤ credits ≤ high, low ≥ 0, and scales with the prices (property)', () => {
    const costs = fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 2, maxLength: 12 });
    fc.assert(
      fc.property(costs, fc.integer({ min: 1, max: 50 }), fc.integer({ min: 2, max: 5 }), (units, cases, factor) => {
        const obs = caseObs('m', units.map((u) => u / 100_000));
        const f = forecastCredits({ m: { cases, threadTurns: [3] } }, obs, { level: 0.95 });
        expect(f.total.low).toBeGreaterThanOrEqual(0);
        expect(f.total.low).toBeLessThanOrEqual(f.total.credits);
        expect(f.total.credits).toBeLessThanOrEqual(f.total.high);
        const scaled = forecastCredits({ m: { cases, threadTurns: [3] } }, obs.map((o) => ({ ...o, credits: o.credits * factor })), { level: 0.95 });
        expect(scaled.total.credits).toBeCloseTo(f.total.credits * factor, 3);
      }),
    );
  });
});
