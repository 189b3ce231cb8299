// Whether the harness itself was the limit: its event loop lagged, or it started fewer than the
// target while it had free slots (so the service did not hold it back). Streaming over the lines.
import type { HarnessSaturation } from '../domain/load.js';
import type { TimelineLine } from '../domain/timeline.js';
import { KNEE_WINDOW_MS } from './load-stages.js';

/** Loop delay p99 past this (ms) makes the harness send and read late enough to show in latencies. */
export const LOOP_DELAY_LIMIT_MS = 100;
/** One slow second is a GC pause; this many make a pattern. */
const SECONDS_OVER_LIMIT = 2;
/** Windows expecting fewer starts than this are too small to call short. */
const MIN_WINDOW_TARGET = 5;

export interface HarnessSaturationOptions {
  /** The open loop's bound on outstanding starts; a window that reached it was held back by the service. */
  maxInFlight: number | null;
  loopDelayLimitMs?: number;
}

export function createHarnessSaturation(options: HarnessSaturationOptions) {
  const limit = options.loopDelayLimitMs ?? LOOP_DELAY_LIMIT_MS;
  let maxDelay: number | null = null;
  let over = 0;
  let shortfalls = 0;
  let window: { startMs: number; target: number; starts: number; inFlightMax: number; dropped: number } | null = null;

  const judge = (): void => {
    if (!window || window.target < MIN_WINDOW_TARGET) return;
    const slotsFree = options.maxInFlight === null || window.inFlightMax < options.maxInFlight;
    if (slotsFree && window.dropped === 0 && window.starts < 0.9 * window.target - 1) shortfalls += 1;
  };

  return {
    add(line: TimelineLine): void {
      if (line.loop_delay_p99_ms !== null) {
        maxDelay = Math.max(maxDelay ?? 0, line.loop_delay_p99_ms);
        if (line.loop_delay_p99_ms > limit) over += 1;
      }
      // A rebuilt line knows no dropped starts nor in-flight: a shortfall cannot be told from it.
      if (line.target_rate === null || line.rebuilt) return;
      const startMs = Math.floor(Math.max(0, line.offset_ms + 500) / KNEE_WINDOW_MS) * KNEE_WINDOW_MS;
      if (window && window.startMs !== startMs) {
        judge();
        window = null;
      }
      window ??= { startMs, target: 0, starts: 0, inFlightMax: 0, dropped: 0 };
      // The schedule's own count when the line has it: a Poisson window of 123 starts against a mean
      // of 150 is ordinary variation of the schedule, not the harness falling short.
      window.target += line.planned ?? line.target_rate;
      window.starts += line.starts;
      window.dropped += line.dropped;
      window.inFlightMax = Math.max(window.inFlightMax, line.in_flight_max);
    },
    finish(): HarnessSaturation {
      judge();
      window = null;
      const reasons: string[] = [];
      if (over >= SECONDS_OVER_LIMIT) reasons.push(`the harness's event loop lagged: delay p99 above ${limit} ms in ${over} second(s) (max ${maxDelay} ms)`);
      if (shortfalls > 0) reasons.push(`the harness started under 90% of the target rate in ${shortfalls} 5-second window(s) while it had free slots`);
      return {
        saturated: reasons.length > 0, reasons, loop_delay_p99_max_ms: maxDelay, loop_delay_limit_ms: limit,
        seconds_over_limit: over, shortfall_windows: shortfalls,
      };
    },
  };
}
