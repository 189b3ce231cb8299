// A closed loop whose worker count follows stages (k6's ramping-vus): a unit starts while fewer are in
// flight than the target, linearly between stages; a worker above the target ends with its unit.
import { profileDurationMs, targetRateAt, type LoadProfile } from '../arrivals.js';
import type { Executor } from './executor.js';

export interface RampingWorkersSpec {
  kind: 'ramping-workers';
  /** The stages' targets are worker counts. */
  profile: LoadProfile;
}

/** How often the target is looked at: ramps are seconds long, a tenth of one is fine-grained enough. */
export const STEER_EVERY_MS = 100;

export function rampingWorkersExecutor(spec: RampingWorkersSpec, offsetMs = 0): Executor {
  const endMs = offsetMs + profileDurationMs(spec.profile);
  return {
    cycles: true,
    timeBound: true,
    maxInFlight: () => Infinity,
    next: ({ elapsedMs, inFlight }) => {
      if (elapsedMs >= endMs) return { kind: 'done' };
      if (inFlight < Math.round(targetRateAt(spec.profile, elapsedMs - offsetMs))) return { kind: 'start', intendedAtMs: null };
      return { kind: 'wait', untilMs: Math.min(endMs, elapsedMs + STEER_EVERY_MS) };
    },
  };
}
