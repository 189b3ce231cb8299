// What gates a verdict (`--fail-on`), for run, report and compare alike, and the one rule that turns a run's status and gates into a verdict.
import { InputError } from '../domain/errors.js';
import type { RunInfo } from '../domain/run.js';
import type { Verdict } from '../domain/summary.js';

/**
 * Every gate: `checks` (an answer failed its checks, or its request failed, outside any pass_rate
 * threshold and not expected to fail), `judged` (a check could not be judged: its grader failed;
 * the verdict is then `incomplete`, not `fail`), `thresholds`, `dropped` (an open loop did not
 * deliver its planned starts: some never sent, or sent over 1 s late, and no `dropped` threshold of
 * the suite allows it), and the comparison's (`--baseline`, `compare`):
 * `regressions`, `latency`, `credits`, `changed`, `missing`.
 */
export const GATES = ['checks', 'thresholds', 'judged', 'dropped', 'regressions', 'latency', 'credits', 'changed', 'missing'] as const;
export type Gate = (typeof GATES)[number];

/** `changed` is opt-in: a live model rewords its answers from run to run, so "changed" alone is noise. */
export const DEFAULT_GATES: readonly Gate[] = ['checks', 'thresholds', 'judged', 'dropped', 'regressions', 'latency', 'credits', 'missing'];

/** `checks,thresholds`; `none` turns every gate off (everything is still reported). */
export function parseFailOn(value: string | string[] | undefined): Gate[] | undefined {
  if (value === undefined) return undefined;
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (parts.length === 1 && parts[0] === 'none') return [];
  const unknown = parts.filter((p) => !(GATES as readonly string[]).includes(p));
  if (unknown.length > 0 || parts.length === 0) {
    const got = unknown.length > 0 ? `unknown ${unknown.map((u) => `"${u}"`).join(', ')}` : 'an empty list';
    throw new InputError(`${got}; expected a comma-separated list of ${GATES.join(', ')} (or none)`, { field: '--fail-on' });
  }
  return [...new Set(parts)] as Gate[];
}

/**
 * The verdict rule: a run that finished is judged by its gates (a `judged` gate that did not hold
 * leaves it incomplete: a PASS must mean every planned check was judged); one a threshold aborted has failed;
 * any other run that did not finish (interrupted, budget-exhausted, failed, still `running` after a
 * kill -9, aborted by an error limit) is `incomplete`, never `pass`.
 */
export function verdictFor(run: Pick<RunInfo, 'status' | 'abort'>, gateFailed: boolean, gateIncomplete = false): Verdict {
  // A known failure outweighs an unknown: a run with a failed check and one not judged has failed.
  if (run.status === 'completed') return gateFailed ? 'fail' : gateIncomplete ? 'incomplete' : 'pass';
  if (run.status === 'aborted' && run.abort?.by === 'threshold') return 'fail';
  return 'incomplete';
}

/** Why a run is incomplete, in words, for the unsent items (JUnit's skipped message). */
export function incompleteReason(run: Pick<RunInfo, 'status' | 'stop_reason' | 'abort'>, missing = 0): string {
  if (run.status === 'completed' && missing > 0) return `run.json says the run completed, and results.ndjson lacks ${missing} planned answers`;
  const why = run.abort?.detail ?? run.stop_reason;
  const status = run.status === 'running' ? 'the run ended without finishing (killed?)' : `the run stopped early (${run.status})`;
  return why ? `${status}: ${why}` : status;
}
