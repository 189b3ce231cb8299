// The run's load spec (src/load/) from its options, and what an open loop plans: starts, and the
// requests those starts imply (a thread start sends all its turns).
import type { LoadSpec } from '../domain/load.js';
import { arrivalProfileOf, buildLoadSpec, workersProfileOf, type LoadInput } from '../load/index.js';
import { requestsOf } from '../plan/index.js';
import type { Plan, Shard } from '../plan/types.js';
import { segmentRequests, segmentSize } from '../runner/segment.js';
import { plannedStarts, type LoadProfile } from '../runner/arrivals.js';
import type { RunSessionOptions } from '../config/run-config.js';

export { MAX_SWEEP_RATES } from '../load/index.js';

/** The load fields of the options (the flags, with the suite's `load:` block under them: session/suite-load.ts). */
export function loadInputOf(options: RunSessionOptions): LoadInput {
  const input: LoadInput = { concurrency: options.concurrency };
  const { rate, durationMs, stages, startRate, sweep, slo, concurrencyStages, arrival, mix, maxInFlight, warmupMs } = options;
  const given = { rate, durationMs, stages, startRate, sweep, slo, concurrencyStages, arrival, mix, maxInFlight, warmupMs };
  for (const [key, value] of Object.entries(given)) if (value !== undefined) (input as unknown as Record<string, unknown>)[key] = value;
  if (options.shard !== undefined) input.shard = true;
  if (options.resumeDir !== undefined) input.resume = true;
  return input;
}

/**
 * The run's spec: built once by prepareRun (session/prepare.ts) and carried as `options.load`.
 * Options that did not pass through it (a unit test's) get theirs built here.
 */
export function specOf(options: RunSessionOptions): LoadSpec {
  return options.load ?? buildLoadSpec(loadInputOf(options));
}

/** Every load rule (src/load/), for options that have not been prepared. */
export function checkLoadProfile(options: RunSessionOptions): void {
  buildLoadSpec(loadInputOf(options));
}

/** The open loop's arrival profile; null for every other kind. */
export function loadProfileOf(options: RunSessionOptions): LoadProfile | null {
  return arrivalProfileOf(specOf(options));
}

/** --concurrency-stages as a profile whose "rate" is a number of workers. */
export function concurrencyProfileOf(options: RunSessionOptions): LoadProfile | null {
  return workersProfileOf(specOf(options));
}

/** A sweep's `--slo` definitions (the threshold grammar), judged per rate; none for other kinds. */
export function sweepSlos(options: RunSessionOptions): Record<string, string[]> {
  const spec = specOf(options);
  return spec.kind === 'sweep' ? spec.slo : {};
}

export interface PlannedLoad {
  /** Units started: a case, or a whole thread. */
  starts: number;
  /** The requests those starts send, cycling through the plan in order. */
  requests: number;
}

/**
 * Whole passes through the plan are counted from its totals, the last partial pass by walking its
 * first units, so nothing is materialised. (A shuffled or weighted mix sends the same starts; its
 * requests are then the expected count.)
 */
export function plannedLoad(profile: LoadProfile, plan: Plan, shard?: Shard | null): PlannedLoad {
  const { counts } = plan;
  const total = plannedStarts(profile);
  if (shard) {
    // --shard i/N of an open loop: its segment of the whole run's starts (runner/segment.ts).
    const starts = segmentSize(total, shard);
    return { starts, requests: counts.items === 0 ? 0 : segmentRequests(plan.units(), counts.items, requestsOf, total, shard) };
  }
  const starts = total;
  if (counts.items === 0) return { starts, requests: 0 };
  let requests = Math.floor(starts / counts.items) * counts.requests;
  let rest = starts % counts.items;
  for (const unit of plan.units()) {
    if (rest-- <= 0) break;
    requests += requestsOf(unit);
  }
  return { starts, requests };
}
