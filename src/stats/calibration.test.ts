// The calibration bench's machinery on a few seeds (bench/model-compare.mjs runs the many): a peer of known
// per-question pass probabilities, through createCaseStats to a verdict.
import { describe, expect, it } from 'vitest';
import { createCaseStats } from '../metrics/case-stats.js';
import type { QuestionStatsResult } from '../metrics/question-stats.js';

interface Figures {
  called_different: number;
  called_b_better: number;
  coverage_a: number | null;
  coverage_difference: number;
  coverage_naive_a: number | null;
}
interface ModelSim {
  simulateRun(create: typeof createCaseStats, scenario: Record<string, number>): { questions: QuestionStatsResult };
  scenarioFigures(create: typeof createCaseStats, scenario: Record<string, number>, seeds: number): Figures;
}

// A path in a variable: the bench is plain JavaScript, loaded at run time as the bench loads it.
const SIM = '../../bench/lib/model-sim.mjs';
const sim = (await import(SIM)) as ModelSim;

describe('model comparison calibration (few seeds)', () => {
  it('calls a 30-point better model better, and equal models equal', () => {
    const better = sim.scenarioFigures(createCaseStats, { questions: 120, delta: 0.3 }, 4);
    expect(better.called_b_better).toBe(4);
    const equal = sim.scenarioFigures(createCaseStats, { questions: 120, delta: 0 }, 4);
    expect(equal.called_different).toBeLessThanOrEqual(1);
  });

  it('keeps its intervals honest with strongly correlated repeats, where counting answers would not', () => {
    const f = sim.scenarioFigures(createCaseStats, { questions: 120, delta: 0.1, repeats: 3, correlation: 0.95 }, 6);
    expect(f.coverage_a).toBeGreaterThanOrEqual(5 / 6);
    expect(f.coverage_difference).toBeGreaterThanOrEqual(5 / 6);
  });

  it('is the same run for the same seed', () => {
    const a = sim.simulateRun(createCaseStats, { seed: 3, questions: 50, delta: 0.1 }).questions.pairs;
    const b = sim.simulateRun(createCaseStats, { seed: 3, questions: 50, delta: 0.1 }).questions.pairs;
    expect(a).toEqual(b);
  });
});
