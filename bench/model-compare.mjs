// Bench: are kbbench's model comparisons calibrated? Seeded runs against a peer of known per-question
// pass probabilities (bench/lib/model-sim.mjs), through the real path from per-question results to
// verdict (createCaseStats → model_pairs). The goals of issue 18, 30 seeds each: equal models called
// different in ≤ 4 of 30; 15 points better called better in ≥ 80%; 95% intervals cover in ≥ 90%.
import { createCaseStats } from '../dist/metrics/case-stats.js';
import { scenarioFigures } from './lib/model-sim.mjs';
import { printMethod, printTable, round } from './lib/stats.mjs';

export const SCENARIOS = [
  { name: 'equal, 200 questions', questions: 200, delta: 0 },
  { name: '+15 points, 200 questions', questions: 200, delta: 0.15 },
  { name: 'equal, --repeat 3 (repeats 90% alike)', questions: 200, delta: 0, repeats: 3, correlation: 0.9 },
  { name: '+15 points, --repeat 3 (90% alike)', questions: 200, delta: 0.15, repeats: 3, correlation: 0.9 },
  { name: 'equal, threads of 4 turns', questions: 200, delta: 0, threadSize: 4 },
];

export async function benchModelCompare({ quick }) {
  const seeds = quick ? 30 : 200;
  printMethod(`${seeds} seeds per scenario (the goals are stated over 30); per seed a fresh peer (true pass probability per question, uniform in [0.1, 0.75] for model a, + the difference for b); verdicts at 5% after Holm; coverage = share of seeds whose 95% interval holds the true value (a's population rate 0.425; the true difference). "naive" = Wilson over every answer as if repeats were independent`);
  const rows = SCENARIOS.map((scenario) => {
    const f = scenarioFigures(createCaseStats, scenario, seeds);
    return {
      scenario: scenario.name, seeds, called_different: f.called_different, called_b_better_pct: round(100 * f.called_b_better / seeds, 1),
      coverage_a: round(f.coverage_a, 3), coverage_difference: round(f.coverage_difference, 3), coverage_naive_a: round(f.coverage_naive_a, 3),
      detectable_p50: f.detectable_p50,
    };
  });
  printTable('model comparison: false calls, power and 95% interval coverage', ['scenario', 'seeds', 'called_different', 'called_b_better_pct', 'coverage_a', 'coverage_difference', 'coverage_naive_a', 'detectable_p50'], rows);
  return { rows };
}
