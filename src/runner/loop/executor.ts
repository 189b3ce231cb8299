// What an executor is (k6's lib/executor): it only says when the next start is due. Everything else
// — start and settled events, holding starts past the in-flight cap, stopping through the gate, the
// graceful stop, the retry deadline and the one plan walker — is the skeleton's (skeleton.ts).
// The runner never names a load kind: each kind's module (src/load/kinds/) makes its Loop.
import type { Sample } from '../../domain/sample.js';
import type { PlanUnit } from '../../plan/types.js';
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
  /**
   * A start is due now: `intendedAtMs` (ms since t0) when it has a schedule, `index` its global place in
   * it; `unit` when the executor brings its own (a traffic log's record), else the plan walker draws one.
   */
  | { kind: 'start'; intendedAtMs: number | null; index?: number; unit?: PlanUnit }
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
  /** True: its dropped starts are named by item id (the timeline keeps them, so a resume never sends a dropped start again). */
  readonly namesDrops?: boolean;
  next(state: LoopState): NextStart;
  /** Units it brought were dropped (never sent): as a unit with no answer, a conversation's next turn may go. Absent: not told. */
  dropped?(units: readonly PlanUnit[]): void;
  /** A unit it brought has settled, with its last result line (a conversation's id is in it); absent: not asked. */
  settled?(unit: PlanUnit, last: Sample | null): void;
}

/**
 * A run's load as the runner takes it, made by its load kind's module (src/load/kinds/<kind>/):
 * the runner asks it for its executor and, with --workers, for a worker's share; it never branches
 * on the kind.
 */
export interface Loop {
  /** The load kind's name (for messages and tests). */
  readonly kind: string;
  /** The executor of this run, made once when the loop starts; it may set the retry deadline through `control`. */
  executor(control: LoopControl): Executor;
  /**
   * Worker `index` of `count`'s part of the run (--workers): the shares add up to the whole. Absent:
   * the kind runs in one worker (session/workers/count.ts never gives it more).
   */
  share?(index: number, count: number): Loop;
}
