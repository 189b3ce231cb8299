// A stage of an open loop's load profile, as the arrivals module describes it (same shape: the
// metrics take stages as plain data and never import the runner's schedule).
import type { StageWindow } from '../domain/load.js';
import type { Sample } from '../domain/sample.js';

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

/**
 * When a result was intended to start (ms on the run's clock): its offset less its lateness, each
 * recorded to the microsecond, so the difference is kept to 10 µs: a start due at a stage's edge
 * (a replayed record at 1000 ms, the first at 0) is in the stage it was due in, not 1 µs before it.
 */
export function intendedStartMs(sample: Pick<Sample, 'offset_ms' | 'scheduled_delay_ms'>): number {
  return Math.round((sample.offset_ms - (sample.scheduled_delay_ms ?? 0)) * 100) / 100 || 0;
}

/**
 * The rate a result belongs to: the stage in which it was intended to start, as the stage table
 * counts it, whenever it finished (the slowest answers of an overloaded rate must not escape its
 * SLO, nor land on the next rate's).
 */
export function rateIndexOf(stages: readonly StageWindow[], sample: Sample): number {
  const startMs = intendedStartMs(sample);
  const first = stages[0];
  if (!first || startMs < first.start_ms) return -1;
  const i = stages.findIndex((s) => startMs < s.end_ms);
  return i === -1 ? stages.length - 1 : i;
}
