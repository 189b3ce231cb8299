// The permutation of a pass-rate series that respects questions: each question's outcomes are
// shuffled across runs on their own, so the test asks "is any question's pass history tied to time?".
import type { Permuter } from './e-divisive.js';

/** Pass counts of questions × runs: entry [q * runs + r]; a question absent from a run has 0 requests. */
export interface QuestionMatrix {
  questions: number;
  runs: number;
  passed: Float64Array;
  requests: Float64Array;
}

/** Each run's pass rate over its questions (NaN for a run without any). */
export function ratesOf(matrix: QuestionMatrix): Float64Array {
  const passed = new Float64Array(matrix.runs);
  const requests = new Float64Array(matrix.runs);
  for (let q = 0; q < matrix.questions; q++) {
    for (let r = 0; r < matrix.runs; r++) {
      passed[r]! += matrix.passed[q * matrix.runs + r]!;
      requests[r]! += matrix.requests[q * matrix.runs + r]!;
    }
  }
  return passed.map((p, r) => (requests[r]! > 0 ? p / requests[r]! : Number.NaN));
}

/**
 * Under "nothing changed", a question's outcome in one run is as likely in any other: so shuffling
 * each question's column (its passed/requests pairs) across the segment's runs independently keeps
 * every question's difficulty while breaking any tie to time (a stratified permutation test).
 */
export function questionPermuter(matrix: QuestionMatrix): Permuter {
  return {
    permuted(start, end, random) {
      const length = end - start;
      const passed = new Float64Array(length);
      const requests = new Float64Array(length);
      const order = new Int32Array(length);
      for (let q = 0; q < matrix.questions; q++) {
        for (let i = 0; i < length; i++) order[i] = i;
        for (let i = length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          const tmp = order[i]!;
          order[i] = order[j]!;
          order[j] = tmp;
        }
        const base = q * matrix.runs + start;
        for (let i = 0; i < length; i++) {
          passed[i]! += matrix.passed[base + order[i]!]!;
          requests[i]! += matrix.requests[base + order[i]!]!;
        }
      }
      return passed.map((p, i) => (requests[i]! > 0 ? p / requests[i]! : 0));
    },
  };
}
