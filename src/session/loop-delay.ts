// The harness's own event-loop delay (perf_hooks), read per closed second: a load tool whose loop
// lags sends late and reads late, and must say so rather than blame the service.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface LoopDelayProbe {
  /** p99 (ms) since the last read, then reset; null when nothing was sampled. */
  takeP99Ms(): number | null;
  stop(): void;
}

export function startLoopDelayProbe(resolutionMs = 10): LoopDelayProbe {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  return {
    takeP99Ms() {
      if (histogram.count === 0) return null;
      // The histogram is in ns and counts the sampling resolution itself: the delay is beyond it.
      const p99 = Math.max(0, histogram.percentile(99) / 1e6 - resolutionMs);
      histogram.reset();
      return p99;
    },
    stop: () => histogram.disable(),
  };
}
