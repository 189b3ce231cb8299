// A stage of an open loop's load profile, as the arrivals module describes it (same shape: the
// metrics take stages as plain data and never import the runner's schedule).
import type { StageWindow } from '../domain/load.js';

export type { RunLoad, StageWindow } from '../domain/load.js';

/** Target starts per second at ms since the run's start: linear within a stage, 0 outside them. */
export function rateInStages(stages: readonly StageWindow[], tMs: number): number {
  for (const s of stages) {
    if (tMs < s.start_ms || tMs >= s.end_ms) continue;
    const span = s.end_ms - s.start_ms;
    return span > 0 ? s.from_rate + ((s.to_rate - s.from_rate) * (tMs - s.start_ms)) / span : s.to_rate;
  }
  return 0;
}

