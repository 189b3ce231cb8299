// Credit arithmetic in exact units: the service reports credits to 5 decimals, so every sum is kept in
// integer 1e-5 units (a float sum of 100,000 answers drifts). The one place credits are added up.
import type { CheckResult, Sample } from '../domain/sample.js';

const UNITS = 100_000;
export const toUnits = (credits: number): number => Math.round(credits * UNITS);
export const fromUnits = (units: number): number => units / UNITS;
/** A credit figure rounded to the service's precision (for values that come from a ratio). */
export const roundCredits = (credits: number): number => fromUnits(toUnits(credits));

/** What a request's checks (judges) spent, in 1e-5 units. */
export function checkCreditUnits(checks: readonly CheckResult[]): number {
  let units = 0;
  for (const check of checks) units += toUnits(check.credits_used ?? 0);
  return units;
}

/** Everything a request spent (its answer and its checks), in 1e-5 units. */
export function sampleCreditUnits(sample: Pick<Sample, 'checks' | 'credits_used'>): number {
  return toUnits(sample.credits_used ?? 0) + checkCreditUnits(sample.checks);
}

/** The sum of credit figures, exactly. */
export function sumCredits(values: Iterable<number | null | undefined>): number {
  let units = 0;
  for (const value of values) units += toUnits(value ?? 0);
  return fromUnits(units);
}
