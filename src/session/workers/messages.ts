// What the main thread and its worker threads (--workers) say to each other: plain, cloneable data.
import type { GraderSpec, RequestOptions } from '../../domain/suite.js';
import type { PlanUnit } from '../../plan/types.js';
import type { RunEvent, StopReason } from '../../runner/index.js';
import type { RunConfig } from '../../config/run-config.js';

export { WorkerError } from '../../domain/errors.js';

/**
 * What the main thread read and checked, given to each worker as data: a worker never opens the
 * suite (or a knowledge document) again, so a file replaced, deleted or a FIFO after the preflight
 * cannot make the workers run another plan than the one run.json records.
 */
export interface WorkerPlan {
  /** The run's prepared options (the suite's load block applied, `load` set). */
  options: RunConfig;
  /** This worker's units, in order: a closed loop's every count-th unit, or an open loop's whole plan. */
  units: PlanUnit[];
  grader?: GraderSpec;
  /** The knowledge documents' passages (context checks). */
  knowledge?: { files: string[]; texts: string[] };
}

/** A worker's share of the run: worker `index` (0-based) of `count`, and the plan it runs. */
export interface WorkerInit extends WorkerPlan {
  index: number;
  count: number;
  target: { baseUrl: string; apiKey: string; boardId: string; chatId: string; embedded: boolean };
  previousUnits: number;
  maxWeight: number;
  /** The suite's `defaults` (drive.ts DriveCounts `suiteDefaults`). */
  suiteDefaults?: RequestOptions;
}

export type ToWorker =
  /** Start now: the run's t0 in the main thread's clock, and that clock's origin (wall ms). */
  | { type: 'go'; runStartMs: number; timeOrigin: number }
  /** The first signal: no new starts, in flight get the graceful stop. */
  | { type: 'stop' }
  /** The hard stop: in flight cancelled, not recorded. */
  | { type: 'abort' }
  /** A stop condition met (in the main thread or another worker): this worker stops starting too. */
  | { type: 'halt'; reason: StopReason; detail: string }
  /** The run is given up (a failure elsewhere, the consumer gone). */
  | { type: 'cancel' };

export interface WorkerFailure {
  name: string;
  message: string;
  code?: string;
  stack?: string;
}

export type FromWorker =
  /** Prepared: its plan is built, its client made (timeOrigin: its clock's origin, wall ms). */
  | { type: 'ready'; timeOrigin: number }
  /** The events of one event-loop turn, times in the main thread's clock, and the credits spent so far (1e-5 units). */
  | { type: 'events'; events: RunEvent[]; spentUnits: number }
  /** Its loop is over: every event was sent before this. */
  | { type: 'end'; spentUnits: number }
  | { type: 'failed'; error: WorkerFailure };

export function failureOf(error: unknown): WorkerFailure {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}), ...(error.stack ? { stack: error.stack } : {}) };
}
