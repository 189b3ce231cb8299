// What a sweep's `sweep` event means once its probes are done: its rates as a profile on the run's
// clock (the live line's target and phase) and as run.json's `load` (their stages, the SLOs).
import type { RunLoad, SweepLoad } from '../../../domain/load.js';
import { stageWindows, type LoadProfile } from '../../../runner/arrivals.js';
import type { ProbedRates, RatesFound } from '../../kind.js';
import { sweepProfile } from './executor.js';

type SweepFound = RatesFound;

/**
 * A sweep's rates as a profile on the run's clock: a first stage of target 0 covers the probes
 * (closed loops), then one step stage per rate.
 */
export function sweepRunProfile(sweep: Pick<SweepFound, 'start_ms' | 'rate_ms' | 'rates'>): LoadProfile {
  const rates = sweepProfile(sweep.rates, sweep.rate_ms);
  const stages = rates.kind === 'stages' ? rates.stages : [];
  return { kind: 'stages', startRatePerS: 0, stages: [{ durationMs: sweep.start_ms, targetPerS: 0, fromPerS: 0 }, ...stages] };
}

/** Where a sweep is at `tMs`: probing, or its k-th rate of N (its stages follow a first one of target 0). */
export function sweepPhase(profile: LoadProfile | null, tMs: number): string {
  if (profile === null || profile.kind !== 'stages') return 'probing (closed loops: one at a time, then at saturation)';
  const rates = profile.stages.slice(1);
  let endMs = profile.stages[0]!.durationMs;
  for (const [i, stage] of rates.entries()) {
    endMs += stage.durationMs;
    if (tMs < endMs) return `rate ${i + 1}/${rates.length}`;
  }
  return 'rates done';
}

/** run.json's `load` of a sweep once its rates are known: the rates' stages on the run's clock, its bound and SLOs. */
export function sweepRecorded(sweep: SweepFound, spec: Pick<SweepLoad, 'slo' | 'maxInFlight'>): RunLoad {
  const stages = stageWindows(sweepRunProfile(sweep)).slice(1).map((w, index) => ({ ...w, index }));
  return { stages, max_in_flight: spec.maxInFlight, sweep: { ...sweep, slo: spec.slo } };
}

export const sweepProbed: ProbedRates<SweepLoad> = { profile: sweepRunProfile, phase: sweepPhase, recorded: sweepRecorded };
