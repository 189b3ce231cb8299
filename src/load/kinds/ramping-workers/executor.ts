// A closed loop whose worker count follows stages (k6's ramping-vus): a unit starts while fewer are in
// flight than the target, linearly between stages; a worker above the target ends with its unit.
import { profileDurationMs, targetRateAt, type LoadProfile } from '../../../runner/arrivals.js';
import type { Executor, Loop } from '../../../runner/loop/executor.js';

/** How often the target is looked at: ramps are seconds long, a tenth of one is fine-grained enough. */
export const STEER_EVERY_MS = 100;

/** `profile`'s targets are worker counts; `offsetMs`: where on the run's clock its 0 lies. */
export function rampingWorkersExecutor(profile: LoadProfile, offsetMs = 0): Executor {
  const endMs = offsetMs + profileDurationMs(profile);
  return {
    cycles: true,
    timeBound: true,
    maxInFlight: () => Infinity,
    next: ({ elapsedMs, inFlight }) => {
      if (elapsedMs >= endMs) return { kind: 'done' };
      if (inFlight < Math.round(targetRateAt(profile, elapsedMs - offsetMs))) return { kind: 'start', intendedAtMs: null };
      return { kind: 'wait', untilMs: Math.min(endMs, elapsedMs + STEER_EVERY_MS) };
    },
  };
}

/** The run's loop: one pool of workers (it does not split over --workers); retries end with the stages. */
export function rampingWorkersLoop(profile: LoadProfile): Loop {
  return {
    kind: 'ramping-workers',
    executor(control) {
      control.setRetryDeadline(profileDurationMs(profile));
      return rampingWorkersExecutor(profile);
    },
  };
}
