// An item's state from its checks' states: the one rule, so no reader decides it differently.
import type { CheckResult } from '../domain/sample.js';

export interface ItemOutcome {
  pass: boolean;
  /** No check failed, and at least one could not be judged: why. */
  not_judged?: string;
}

/**
 * A failed check fails the item whatever else happened; with none failed, a check not judged
 * leaves the item not judged (neither passed nor failed: `pass` false, `not_judged` set); else it passed.
 */
export function itemOutcome(checks: readonly CheckResult[]): ItemOutcome {
  if (checks.some((c) => c.pass === false)) return { pass: false };
  const unjudged = checks.filter((c) => c.pass !== true);
  if (unjudged.length === 0) return { pass: true };
  return { pass: false, not_judged: unjudged.map((c) => `${c.type}: ${c.not_judged ?? 'not judged'}`).join('; ') };
}

/** A check's state as a word, for tables and reports. */
export function checkState(check: Pick<CheckResult, 'pass'>): 'pass' | 'fail' | 'not judged' {
  return check.pass === true ? 'pass' : check.pass === false ? 'fail' : 'not judged';
}
