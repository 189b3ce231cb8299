// One unit from start to its samples (a case, or a whole thread), and the events a run yields.
import type { SweepProbe } from '../domain/load.js';
import type { Sample } from '../domain/sample.js';

export type { SweepProbe };
import { formatItemId } from '../plan/item-id.js';
import type { PlanUnit } from '../plan/types.js';
import type { StartGate, StopReason } from './gate.js';
import { RequestCancelled, sendRequest, type SendDeps } from './send.js';
import { runThread } from './thread.js';
import { reuseUnit } from './reuse.js';

export type RunEvent =
  | { type: 'sample'; sample: Sample }
  | { type: 'stopped'; reason: StopReason; detail: string }
  /** Starts given up; `items` names them (their first requests' ids) when the loop names its drops (a replay's: a resume skips them). */
  | { type: 'dropped'; count: number; items?: string[] }
  /** A unit handed to runUnit: at_ms monotonic, intended_at_ms its open-loop schedule (null in a closed loop). */
  | { type: 'start'; id: number; at_ms: number; intended_at_ms: number | null }
  /** That unit finished (its samples, if any, were pushed before). */
  | { type: 'settled'; id: number }
  /** Starts due and held back by the in-flight cap (sent late, or dropped at the end): how many now. */
  | { type: 'held'; count: number }
  /** A sweep's probes are done and its rates begin (start_ms since the run's start); runner/sweep.ts. */
  | { type: 'sweep'; probes: { sequential: SweepProbe; saturation: SweepProbe }; start_ms: number; rate_ms: number; rates: number[] };


/** Where a loop pushes its events and says it is done (the run's channel, or a sweep's phase). */
export interface EventSink {
  push(event: RunEvent): void;
  close(error?: unknown): void;
}

/** The intended start of a unit (its first request's), null when it has none (closed loop). */
export function intendedAtOf(unit: PlanUnit): number | null {
  const first = unit.kind === 'case' ? unit.request : unit.turns[0];
  return first?.intended_at_ms ?? null;
}

/** The item id of a unit's first request: how a dropped start is named (a replay's record is one request). */
export function firstItemOf(unit: PlanUnit): string {
  if (unit.kind === 'case') return formatItemId(unit.request.id);
  return formatItemId(unit.turns[0]?.id ?? unit.key);
}

/** Where a run draws its units from: a plan, or the part of one a resume has left. */
export interface UnitSource {
  units(): Iterator<PlanUnit>;
}

/** Runs one unit, pushing its samples; a hard abort ends it silently (nothing half-done is recorded). */
export async function runUnit(unit: PlanUnit, deps: SendDeps, gate: StartGate, emit: (s: Sample) => void): Promise<void> {
  try {
    // Answered from earlier runs (--reuse-answers): nothing is sent, so neither budget nor slot is asked for.
    if (deps.reuse !== undefined && gate.stopped === null && (await reuseUnit(unit, deps, emit))) return;
    if (unit.kind === 'thread') {
      await runThread(unit, deps, { stopped: () => gate.stopped !== null, beforeTurn: (request) => gate.enter(request), emit });
      return;
    }
    const release = await gate.enter(unit.request);
    if (!release) return;
    try {
      emit(await sendRequest(unit.request, deps, null));
    } finally {
      release();
    }
  } catch (error) {
    if (!(error instanceof RequestCancelled)) throw error;
  }
}
