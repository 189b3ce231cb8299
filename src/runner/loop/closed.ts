// The closed loop: N workers; a unit starts when one ends. Units are drawn when a slot is free, never
// queued up front, so memory follows the concurrency, not the plan. The runner's default loop (a
// RunnerOptions without `load`) and the `closed` load kind's (src/load/kinds/closed/).
import { workerShare } from '../segment.js';
import type { Executor, Loop } from './executor.js';

export function closedExecutor(concurrency: number): Executor {
  const workers = Math.max(1, concurrency);
  return {
    cycles: false,
    timeBound: false,
    maxInFlight: () => Infinity,
    next: ({ inFlight }) => (inFlight < workers ? { kind: 'start', intendedAtMs: null } : { kind: 'wait', untilMs: null }),
  };
}

/** `concurrency` units in flight until the plan is sent once; a worker of W takes its share of the slots. */
export function closedLoop(concurrency: number): Loop {
  return {
    kind: 'closed',
    executor: () => closedExecutor(concurrency),
    share: (index, count) => closedLoop(workerShare(concurrency, index, count, '--concurrency')),
  };
}
