// What an executor is (k6's lib/executor): it only says when the next start is due. Everything else
// — start and settled events, holding starts past the in-flight cap, stopping through the gate, the
// graceful stop, the retry deadline and the one plan walker — is the skeleton's (skeleton.ts).
import type { RunEvent } from '../unit.js';

/** What the skeleton tells an executor each time it asks. */
export interface LoopState {
  /** ms since the run's t0 (monotonic). */
  elapsedMs: number;
  /** Units started and not yet settled. */
  inFlight: number;
  /** Units settled so far (a probe's rate). */
  settled: number;
  /** The global index the next start without one of its own would draw. */
  nextIndex: number;
}

export type NextStart =
  /** A start is due now: `intendedAtMs` (ms since t0) when it has a schedule, `index` its global place in it. */
  | { kind: 'start'; intendedAtMs: number | null; index?: number }
  /** Nothing due: ask again at `untilMs` (ms since t0), or when a unit settles (null). */
  | { kind: 'wait'; untilMs: number | null }
  /** The schedule is over: no more starts (in-flight units get the graceful stop). */
  | { kind: 'done' };

/** What an executor may do besides answering `next`: say something in the run's events, move the retry deadline. */
export interface LoopControl {
  push(event: RunEvent): void;
  /** No retry wait may end past this (ms since t0). */
  setRetryDeadline(elapsedMs: number): void;
}

export interface Executor {
  /** Starts beyond this many in flight are held (sent late, or dropped at the end); Infinity holds none. */
  maxInFlight(): number;
  /** True: the plan is walked round and round (a time-bound loop); false: once (a closed loop). */
  readonly cycles: boolean;
  /** True when the schedule has an end of its own: in-flight units then get the graceful stop. */
  readonly timeBound: boolean;
  next(state: LoopState): NextStart;
}
