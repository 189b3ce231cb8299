// What a spec means, asked of its kind's module (kinds/registry.ts): the rest of kbbench calls these
// and never branches on a kind. Each answers for any kind, a new one included, without an edit here.
import type { LoadSpec, RunLoad } from '../domain/load.js';
import type { Shard } from '../plan/types.js';
import type { LoadProfile } from '../runner/arrivals.js';
import type { Loop } from '../runner/loop/executor.js';
import { FLAG_NAMES, type LoadInput } from './input.js';
import type { LoopContext, ProbedRates, WorkerPlaces } from './kind.js';
import { kindOf } from './kinds/registry.js';

/** An open loop's arrival profile; null for a kind with no schedule of starts before the run (a sweep's rates come from its probes). */
export function arrivalProfileOf(spec: LoadSpec): LoadProfile | null {
  return kindOf(spec.kind).arrivalProfile?.(spec) ?? null;
}

/** A ramp of workers as a profile whose "rate" is a number of workers; null for other kinds. */
export function workersProfileOf(spec: LoadSpec): LoadProfile | null {
  return kindOf(spec.kind).workersProfile?.(spec) ?? null;
}

/** run.json's schedule of the run (its stages, its bound), or null when none is known before it runs. */
export function scheduleOf(spec: LoadSpec, shardCount = 1): RunLoad | null {
  return kindOf(spec.kind).schedule?.(spec, shardCount) ?? null;
}

/** The runner's loop of the spec (its kind's executor), with the run's seed and shard. */
export function loopOf(spec: LoadSpec, run: LoopContext): Loop {
  return kindOf(spec.kind).loop(spec, run);
}

/** The console header's load line; null when the request count says it. */
export function describeLoad(spec: LoadSpec, run: { concurrency: number; shard?: Shard | null }): string | null {
  return kindOf(spec.kind).describe(spec, run);
}

/** True when the run cycles the plan until a schedule of its own ends; false: the plan once (a closed loop). */
export function isTimeBound(spec: LoadSpec): boolean {
  return kindOf(spec.kind).timeBound;
}

/** True when `--shard` takes a segment of the spec's schedule of starts rather than a slice of the plan. */
export function shardsSchedule(spec: LoadSpec): boolean {
  return kindOf(spec.kind).shardsSchedule === true;
}

/** What the spec's probes' rates mean (kind.ts `probed`), or null when its results are never probes. */
export function probedOf(spec: LoadSpec): ProbedRates<LoadSpec> | null {
  return kindOf(spec.kind).probed ?? null;
}

/** The `--concurrency` the spec carries (a closed loop's), or null when it does not say it. */
export function specConcurrency(spec: LoadSpec): number | null {
  return kindOf(spec.kind).concurrency?.(spec) ?? null;
}

/** True when the run's schedule starts on a whole wall-clock second (its stages where a timeline line starts). */
export function startsOnWholeSecond(spec: LoadSpec): boolean {
  return kindOf(spec.kind).startsOnWholeSecond === true;
}

/** The open loop's bound on outstanding starts, or null when the kind has none before it runs. */
export function specMaxInFlight(spec: LoadSpec): number | null {
  return kindOf(spec.kind).maxInFlight?.(spec) ?? null;
}

/** Why `--workers` keeps one event loop for the spec, or null when it splits. */
export function oneWorkerReason(spec: LoadSpec): string | null {
  return kindOf(spec.kind).oneWorker ?? null;
}

/** The bound `--workers` splits (each worker needs one of its places), or null. */
export function workerPlacesOf(spec: LoadSpec): WorkerPlaces | null {
  return kindOf(spec.kind).workerPlaces?.(spec) ?? null;
}

/** Why a run of this spec takes one model at most, or null (kind.ts `oneModel`). */
export function oneModelReasonOf(spec: LoadSpec): string | null {
  return kindOf(spec.kind).oneModel ?? null;
}

/** Whether the kind's requests bring conversations of their own, beside the plan's threads (kind.ts `ownConversations`). */
export function ownConversationsOf(spec: LoadSpec): boolean {
  return kindOf(spec.kind).ownConversations === true;
}

/** A resume's flags against the recorded spec: why refused, null when fine, undefined when the kind has no check of its own (kind.ts `resumeClash`). */
export function resumeClashOf(spec: LoadSpec, input: LoadInput, allowChanged: boolean): string | null | undefined {
  const def = kindOf(spec.kind);
  return def.resumeClash === undefined ? undefined : def.resumeClash(spec, input, FLAG_NAMES, allowChanged);
}

/** Where a resumed run's clock starts on its schedule's, ms (kind.ts `resumeClockMs`); 0 for a kind whose resume starts anew. */
export function resumeClockOf(spec: LoadSpec, run: LoopContext): Promise<number> {
  const def = kindOf(spec.kind);
  return def.resumeClockMs === undefined ? Promise.resolve(0) : def.resumeClockMs(spec, run);
}

/** Why `--resume` cannot continue a run of this spec, or null when it can (kind.ts `noResume`). */
export function noResumeOf(spec: LoadSpec): string | null {
  return kindOf(spec.kind).noResume ?? null;
}

/** Why a forecast cannot count what this load sends, or null when it can (kind.ts `volumeUnknown`). */
export function volumeUnknownOf(spec: LoadSpec): string | null {
  return kindOf(spec.kind).volumeUnknown ?? null;
}
