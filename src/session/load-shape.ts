// What the open loop meant to do over time (its stages and target rate), for the timeline and the
// per-stage summary. Today one stage at the constant --rate; a ramping profile gives its own stages.
import type { StageWindow } from '../metrics/stage-window.js';

export interface LoadShape {
  stages: StageWindow[];
  /** Intended starts per second at ms since the run's start. */
  targetRateAt(tMs: number): number;
}

/** The load shape of run options (a session's, or run.json's recorded ones); null for a closed loop. */
export function loadShapeOf(options: { rate?: unknown; durationMs?: unknown }): LoadShape | null {
  const { rate, durationMs } = options;
  if (typeof rate !== 'number' || typeof durationMs !== 'number' || rate <= 0 || durationMs <= 0) return null;
  return {
    stages: [{ index: 0, from_rate: rate, to_rate: rate, start_ms: 0, end_ms: durationMs }],
    targetRateAt: (tMs) => (tMs >= 0 && tMs < durationMs ? rate : 0),
  };
}

/** The open loop's bound on outstanding starts (--max-in-flight, else the larger of --concurrency and 64). */
export function maxInFlightOf(options: { maxInFlight?: unknown; concurrency?: unknown }): number {
  if (typeof options.maxInFlight === 'number') return options.maxInFlight;
  return Math.max(typeof options.concurrency === 'number' ? options.concurrency : 4, 64);
}
