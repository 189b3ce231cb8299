import { describe, expect, it } from 'vitest';
import { forecastItems, type ItemCosts, type PopulationItem } from './item-forecast.js';

const items = (model: string, n: number, repeats = 1, turn: number | null = null): PopulationItem[] =>
  Array.from({ length: n }, (_, i) => ({ model, key: `case:${i}`, inputChars: 20 + i, turn, repeats }));
const seen = (model: string, costs: Record<number, number[]>): ItemCosts[] =>
  Object.entries(costs).map(([i, c]) => {
    const mean = c.reduce((a, b) => a + b, 0) / c.length;
    return { model, key: `case:${i}`, count: c.length, mean, ss: c.reduce((a, x) => a + (x - mean) ** 2, 0) };
  });

describe('forecastItems', () => {
  it('with every item observed over repeats that agree, forecasts exactly, with no width', () => {
    const f = forecastItems(items('m', 3, 4), seen('m', { 0: [1, 1], 1: [2, 2], 2: [3, 3] }), { level: 0.95 });
    expect(f.models.m).toMatchObject({ credits: 24, low: 24, high: 24, requests: 12, items: { planned: 3, observed: 3 }, within_item: { sd: 0, observed: true } });
  });

  it('adds the repeats\' own spread when they scatter', () => {
    const f = forecastItems(items('m', 3, 4), seen('m', { 0: [0.9, 1.1], 1: [1.8, 2.2], 2: [3, 3] }), { level: 0.95 });
    expect(f.models.m!.credits).toBeCloseTo(24, 5);
    expect(f.models.m!.high).toBeGreaterThan(24);
    expect(f.models.m!.within_item.observed).toBe(true);
  });

  it('narrows as more of a finite population is observed (finite-population correction)', () => {
    const costs = { 0: [1, 1], 1: [3, 3], 2: [2, 2], 3: [2.5, 2.5], 4: [1.5, 1.5], 5: [2, 2], 6: [1, 1], 7: [3, 3] };
    const width = (k: number) => {
      const part = Object.fromEntries(Object.entries(costs).slice(0, k));
      const f = forecastItems(items('m', 10), seen('m', part), { level: 0.95 });
      return f.models.m!.high - f.models.m!.low;
    };
    expect(width(8)).toBeLessThan(width(5));
    expect(width(5)).toBeLessThan(width(3));
  });

  it('predicts unobserved items by least squares on input size once the sample allows a slope', () => {
    const pop = items('m', 12);
    const costs = Object.fromEntries([0, 2, 4, 6, 8, 10].map((i) => [i, [0.01 * (20 + i)]]));
    const f = forecastItems(pop, seen('m', costs), { level: 0.95 });
    expect(f.models.m!.estimator).toBe('regression');
    const truth = pop.reduce((a, p) => a + 0.01 * p.inputChars, 0);
    expect(f.models.m!.credits).toBeCloseTo(truth, 4);
  });

  it('forecasts a volume per model as that model taking all of it; the total splits it like the plan', () => {
    const pop = [...items('a', 3), ...items('b', 1)];
    const obs = [...seen('a', { 0: [1], 1: [1], 2: [1] }), ...seen('b', { 0: [10] })];
    const f = forecastItems(pop, obs, { level: 0.95, volume: 400 });
    expect(f.models.a).toMatchObject({ requests: 400, credits: 400 });
    expect(f.models.b).toMatchObject({ requests: 400, credits: 4000 });
    expect(f.total).toMatchObject({ requests: 400, credits: 300 + 1000 });
  });

  it('forecasts a model\'s unasked items from what another model paid for them, times the two models\' ratio', () => {
    // Item costs 1, 2, …, 8 on `a`; `b` prices everything at a tenth. Each model asked the link (0) and three of its own.
    const pop = [...items('a', 8), ...items('b', 8)];
    const cost = (i: number) => i + 1;
    const obs = [...seen('a', { 0: [cost(0)], 1: [cost(1)], 2: [cost(2)], 3: [cost(3)] }), ...seen('b', { 0: [cost(0) / 10], 5: [cost(5) / 10], 6: [cost(6) / 10], 7: [cost(7) / 10] })];
    const f = forecastItems(pop, obs, { level: 0.95 });
    expect(f.models.a!.items).toEqual({ planned: 8, observed: 4, from_other_models: 3 });
    // Seven of a's eight items known (four own, three from b): enough for a slope on input size, so
    // item 4 is predicted on the line the seven lie on, and the forecast is the truth.
    expect(f.models.a!.estimator).toBe('regression');
    expect(f.models.a!.credits).toBeCloseTo(36, 5);
    expect(f.models.b!.credits).toBeCloseTo(f.models.a!.credits / 10, 5);
    expect(f.total_interval).toBe('bound');
    // Apart, a would see only its own four cheap items and forecast far lower.
    const apart = forecastItems(pop, obs.filter((o) => o.model === 'a'), { level: 0.95 });
    expect(apart.models.a!.credits).toBeCloseTo(8 * 2.5, 5);
    expect(apart.models.a!.high).toBeGreaterThan(0);
  });

  it('names the models it has nothing for, and keeps low ≤ credits ≤ high, low ≥ 0', () => {
    const f = forecastItems([...items('a', 5), ...items('c', 2)], seen('a', { 0: [0.5], 3: [4] }), { level: 0.95 });
    expect(f.unestimated).toEqual(['c']);
    const a = f.models.a!;
    expect(a.low).toBeGreaterThanOrEqual(0);
    expect(a.low).toBeLessThanOrEqual(a.credits);
    expect(a.credits).toBeLessThanOrEqual(a.high);
  });
});
