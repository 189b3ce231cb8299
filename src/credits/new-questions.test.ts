import { describe, expect, it } from 'vitest';
import { forecastItems, type ItemCosts, type PopulationItem } from './item-forecast.js';
import { clusterOfItem, newQuestionsSpread } from './new-questions.js';

// 13 questions whose costs differ a lot, every one observed 3 times with little repeat noise (a --from run).
const costs = [0.01, 0.05, 0.02, 0.09, 0.03, 0.015, 0.07, 0.04, 0.012, 0.06, 0.025, 0.08, 0.035];
const population: PopulationItem[] = costs.map((_, i) => ({ model: 'm', key: `case:q${i}:h`, inputChars: 100, turn: null, repeats: 3 }));
const observed: ItemCosts[] = costs.map((mean, i) => ({ model: 'm', key: `case:q${i}:h`, count: 3, mean, ss: 2 * (mean * 0.01) ** 2 }));

describe('a volume forecast treats the suite as a sample of questions to come (issue 33, item 5)', () => {
  it('is as wide as 13 questions can tell, not ±0.5%', () => {
    const run = forecastItems(population, observed, { level: 0.95 });
    const volume = forecastItems(population, observed, { level: 0.95, volume: 50_000 }).models['m']!;
    const half = (volume.high - volume.low) / 2 / volume.credits;
    // The mean of 13 such costs is known to about ±25%: the interval says so.
    expect(half).toBeGreaterThan(0.15);
    // One more run of the same suite keeps its narrow interval.
    expect((run.total.high - run.total.low) / 2 / run.total.credits).toBeLessThan(0.05);
  });
  it('counts a thread once', () => {
    expect(clusterOfItem('turn:t1#2:abc')).toBe('thread:t1');
    expect(clusterOfItem('case:q1:abc')).toBe('case:q1:abc');
    const spread = newQuestionsSpread(new Map([['turn:t1#1:a', { mean: 1 }], ['turn:t1#2:b', { mean: 1 }], ['case:x:c', { mean: 3 }]]));
    expect(spread!.df).toBe(1);
  });
});
