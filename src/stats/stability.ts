// Repeats of one question: stable or flaky, and pass^k (every one of k tries passes) beside pass@1.

export type Stability = 'stable_pass' | 'flaky' | 'stable_fail';

/** With two or more judged answers: all passed, none passed, or some (flaky). Null with fewer. */
export function stabilityOf(passed: number, judged: number): Stability | null {
  if (judged < 2) return null;
  if (passed === judged) return 'stable_pass';
  if (passed === 0) return 'stable_fail';
  return 'flaky';
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
