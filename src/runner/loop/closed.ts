// The closed loop: N workers; a unit starts when one ends. Units are drawn when a slot is free, never
// queued up front, so memory follows the concurrency, not the plan.
import type { Executor } from './executor.js';

export interface ClosedSpec {
  kind: 'closed';
  concurrency: number;
}

export function closedExecutor(spec: ClosedSpec): Executor {
  const workers = Math.max(1, spec.concurrency);
  return {
    cycles: false,
    timeBound: false,
    maxInFlight: () => Infinity,
    next: ({ inFlight }) => (inFlight < workers ? { kind: 'start', intendedAtMs: null } : { kind: 'wait', untilMs: null }),
  };
}
