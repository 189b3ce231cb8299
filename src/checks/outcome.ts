// An item's state from its checks' states: the one rule, so no reader decides it differently.
import type { CheckResult } from '../domain/sample.js';

export interface ItemOutcome {
  pass: boolean;
  /** No check failed, and at least one could not be judged: why. */
  not_judged?: string;
  /** The weighted score (promptfoo's), given when a check has a weight or a score threshold is set. */
  score?: number;
}

/** A judged check's score: the grader's when it gave one, else 1 for a pass and 0 for a failure. */
function checkScore(check: CheckResult): number {
  return check.score ?? (check.pass === true ? 1 : 0);
}

/**
 * promptfoo's scoring: the weighted mean of the judged checks' scores (weight absent = 1). With a
 * threshold the item passes when the score reaches it; without, every check of weight > 0 must
 * pass (weight 0 is reported only). Checks not judged take no part in the mean.
 */
function weightedOutcome(checks: readonly CheckResult[], threshold: number | undefined): ItemOutcome {
  const judged = checks.filter((c) => c.pass !== null);
  const total = judged.reduce((sum, c) => sum + (c.weight ?? 1), 0);
  const score = total === 0 ? 1 : judged.reduce((sum, c) => sum + (c.weight ?? 1) * checkScore(c), 0) / total;
  const gating = threshold === undefined ? checks.filter((c) => (c.weight ?? 1) > 0) : [];
  if (threshold !== undefined) {
    const unjudged = checks.filter((c) => c.pass === null);
    if (score >= threshold) return { pass: true, score };
    if (unjudged.length === 0) return { pass: false, score };
    return { pass: false, score, not_judged: unjudged.map((c) => `${c.type}: ${c.not_judged ?? 'not judged'}`).join('; ') };
  }
  return { ...allPass(gating), score };
}

/**
 * A failed check fails the item whatever else happened; with none failed, a check not judged
 * leaves the item not judged (neither passed nor failed: `pass` false, `not_judged` set); else it passed.
 */
export function itemOutcome(checks: readonly CheckResult[], threshold?: number): ItemOutcome {
  if (threshold !== undefined || checks.some((c) => c.weight !== undefined)) return weightedOutcome(checks, threshold);
  return allPass(checks);
}

/** Every check must pass; a failure fails, else one not judged leaves the item not judged. */
function allPass(checks: readonly CheckResult[]): ItemOutcome {
  if (checks.some((c) => c.pass === false)) return { pass: false };
  const unjudged = checks.filter((c) => c.pass !== true);
  if (unjudged.length === 0) return { pass: true };
  return { pass: false, not_judged: unjudged.map((c) => `${c.type}: ${c.not_judged ?? 'not judged'}`).join('; ') };
}

/** A check's state as a word, for tables and reports. */
export function checkState(check: Pick<CheckResult, 'pass'>): 'pass' | 'fail' | 'not judged' {
  return check.pass === true ? 'pass' : check.pass === false ? 'fail' : 'not judged';
}
