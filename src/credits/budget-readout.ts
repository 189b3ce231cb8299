// summary.json `credits.budget`: the limits a run was given and by how much its spend passed them.
import type { BudgetReadout } from '../domain/credits.js';
import type { RecordedRunConfig } from '../domain/run-config.js';
import { fromUnits, toUnits } from './units.js';

export type { BudgetReadout } from '../domain/credits.js';

function limitOf(value: number | undefined): number | null {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Null when the run was given no budget: nothing to report. */
export function budgetReadout(options: Pick<RecordedRunConfig['budget'], 'maxCredits' | 'minRemaining'>, spent: number, remaining: number | null): BudgetReadout | null {
  const max = limitOf(options.maxCredits);
  const min = limitOf(options.minRemaining);
  if (max === null && min === null) return null;
  const over = max === null ? 0 : Math.max(0, toUnits(spent) - toUnits(max));
  const below = min === null || remaining === null ? 0 : Math.max(0, toUnits(min) - toUnits(remaining));
  return { max_credits: max, min_remaining: min, spent, overshoot: fromUnits(over), remaining, below_min_remaining: fromUnits(below) };
}
