// A grader with the client's retry layer around its questions (client/retry.ts): wrapped once, where
// the judges are assembled, so a 429 or a passing 5xx from the grader is retried as an answer is.
import { retryCall, type BackoffPolicy } from '../client/retry.js';
import type { Grader } from './types.js';

/** The grader itself when the policy allows no retries (nothing to wrap). */
export function retryingGrader(grader: Grader, policy: BackoffPolicy): Grader {
  if (policy.retries < 1) return grader;
  return {
    kind: grader.kind,
    label: grader.label,
    model: grader.model,
    withModel: (model) => retryingGrader(grader.withModel(model), policy),
    ask: (prompt, signal) => retryCall(() => grader.ask(prompt, signal), policy, signal),
    preflight: (signal) => grader.preflight(signal),
  };
}
