// Repeats of one question: stable or flaky, and pass^k (every one of k tries passes) beside pass@1.

/** `degrades_under_load` is judged across a run's stages (metrics/load-trend.ts), never from one cell's totals. */
export type Stability = 'stable_pass' | 'flaky' | 'stable_fail' | 'failed_to_answer' | 'degrades_under_load';

/** With two or more judged answers: all passed, none passed, or some (flaky). Null with fewer. */
export function stabilityOf(passed: number, judged: number): Stability | null {
  if (judged < 2) return null;
  if (passed === judged) return 'stable_pass';
  if (passed === 0) return 'stable_fail';
  return 'flaky';
}

/**
 * A question × model's class over its repeats. Flaky means unstable when answered: only the answered
 * repeats (passed or failed their checks) are compared, so a question whose failures are request
 * errors (429, timeout, a cut stream) is `failed_to_answer`, not flaky: the service did not answer,
 * the question did not waver. Null with fewer than two repeats and no error.
 */
export function classOf(cell: { passed: number; failed: number; errors: number; notJudged?: number }): Stability | null {
  const answered = stabilityOf(cell.passed, cell.passed + cell.failed);
  if (answered === 'flaky') return 'flaky';
  // A not-judged answer (its grader failed) is counted with the errors but was answered: no request error.
  if (cell.errors - (cell.notJudged ?? 0) > 0) return 'failed_to_answer';
  return answered;
}

/**
 * The unbiased estimate of "k tries in a row all pass" for a question with c passes of n:
 * C(c, k) / C(n, k) (Yao et al. 2024, τ-bench's pass^k). pass@1 is the same with k = 1. A model
 * that passes 80% of the time at random has pass^3 near 0.51; one that always passes the same 80%
 * of questions keeps 0.8: pass^k tells reliability apart from luck.
 */
export function passHatK(passed: number, n: number, k: number): number {
  if (k > n || k < 1) return NaN;
  let v = 1;
  for (let i = 0; i < k; i++) v *= (passed - i) / (n - i);
  return Math.max(0, v);
}
