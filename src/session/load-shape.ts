// What the open loop meant to do over time (its stages and target rate), for the timeline and the
// per-stage summary: the load profile's stages (runner/arrivals.ts), a shard's share of them.
import type { StageWindow } from '../metrics/stage-window.js';
import { stageWindows, targetRateAt, type LoadProfile } from '../runner/arrivals.js';
import { sweepProfile } from '../load/kinds/sweep/executor.js';
import type { SweepPlan } from '../domain/load.js';
import { defaultMaxInFlight, scheduleOf, specMaxInFlight } from '../load/index.js';
import { loadProfileOf } from './load-profile.js';
import { askedConcurrency, specOf } from '../config/load-section.js';
import type { RunConfig } from '../config/run-config.js';

export interface LoadShape {
  stages: StageWindow[];
  /** Intended starts per second at ms since the run's start. */
  targetRateAt(tMs: number): number;
}

/**
 * The load shape of a session's options; null for a closed loop. A shard of N runs 1/N of every
 * stage's rate (its execution segment), and `kbbench merge` adds the shards' rates back up.
 */
export function loadShapeOf(options: RunConfig): LoadShape | null {
  const profile = loadProfileOf(options);
  const schedule = scheduleOf(specOf(options), options.shard?.count ?? 1);
  if (profile === null || schedule === null) return null;
  const share = options.shard ? 1 / options.shard.count : 1;
  return { stages: schedule.stages, targetRateAt: (tMs) => targetRateAt(profile, tMs) * share };
}

/** The open loop's bound on outstanding starts: the spec's (--max-in-flight, else the larger of --concurrency and 64). */
export function maxInFlightOf(options: RunConfig): number {
  return specMaxInFlight(specOf(options)) ?? defaultMaxInFlight({ concurrency: askedConcurrency(options.load) });
}

/**
 * A sweep's rates as a profile on the run's clock: a first stage of target 0 covers the probes
 * (closed loops), then one step stage per rate.
 */
export function sweepRunProfile(sweep: { start_ms: number; rate_ms: number; rates: readonly number[] }): LoadProfile {
  const rates = sweepProfile(sweep.rates, sweep.rate_ms);
  const stages = rates.kind === 'stages' ? rates.stages : [];
  return { kind: 'stages', startRatePerS: 0, stages: [{ durationMs: sweep.start_ms, targetPerS: 0, fromPerS: 0 }, ...stages] };
}

/** run.json's `load` of a sweep once its rates are known: the rates' stages on the run's clock. */
export function sweepLoad(sweep: Omit<SweepPlan, 'slo'>, slo: Record<string, string[]>, maxInFlight: number): { stages: StageWindow[]; max_in_flight: number; sweep: SweepPlan } {
  const stages = stageWindows(sweepRunProfile(sweep)).slice(1).map((w, index) => ({ ...w, index }));
  return { stages, max_in_flight: maxInFlight, sweep: { ...sweep, slo } };
}
