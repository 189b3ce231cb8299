// Test support: a timeline.ndjson of a ramp whose latency turns at 12 starts/s (errors and failed checks after it), with its run.json `load`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sample } from '../../test-support/fixtures.js';
import type { RecordedLoad } from '../../domain/load.js';
import type { TimelineLine } from '../../domain/timeline.js';
import { IntervalSum } from '../../metrics/interval-bucket.js';

export const SYNTHETIC_LOAD: RecordedLoad = {
  spec: { kind: 'arrivals', rate: { kind: 'stages', startRatePerS: 0, stages: [{ durationMs: 40_000, targetPerS: 20 }, { durationMs: 10_000, targetPerS: 20 }] }, arrival: 'constant', maxInFlight: 64 },
  stages: [
    { index: 0, from_rate: 0, to_rate: 20, start_ms: 0, end_ms: 40_000 },
    { index: 1, from_rate: 20, to_rate: 20, start_ms: 40_000, end_ms: 50_000 },
  ],
  max_in_flight: 64,
};

export function syntheticTimeline(startT = 1_790_000_000): TimelineLine[] {
  return Array.from({ length: 50 }, (_, i) => {
    const rate = Math.round(Math.min(20, i / 2));
    const sum = new IntervalSum();
    sum.starts = rate;
    sum.inFlight = Math.round(rate * (rate >= 12 ? 2 : 0.5));
    sum.inFlightMax = sum.inFlight;
    for (let k = 0; k < rate; k++) {
      const slow = rate >= 12;
      const error = slow && k === 0;
      const latencyMs = slow ? 900 + 40 * k : 300 + 10 * k;
      sum.addSample({
        ...sample({ latencyMs, ttfcMs: latencyMs / 3, outcome: error ? 'http_error' : 'ok', pass: !error && !(slow && k === 1), credits: 0.002 }),
        status: error ? 429 : 200, error: error ? { code: 'E_RATE_LIMITED', message: 'slow down' } : null,
        corrected_latency_ms: latencyMs * (slow ? 1.5 : 1),
      });
    }
    return { ...sum.toLine(startT + i, i * 1000, rate), loop_delay_p99_ms: 2 };
  });
}

export function writeSyntheticTimeline(runDir: string): RecordedLoad {
  writeFileSync(join(runDir, 'timeline.ndjson'), syntheticTimeline().map((l) => `${JSON.stringify(l)}\n`).join(''));
  return SYNTHETIC_LOAD;
}

/** The same timeline read as a sweep of four constant rates (12.5 s each), with a lenient SLO. */
export const SYNTHETIC_SWEEP_LOAD: RecordedLoad = {
  spec: { kind: 'sweep', rates: 4, rateMs: 12_500, probeMs: 10_000, saturationWorkers: 32, arrival: 'constant', maxInFlight: 64, slo: { ttfc_ms: ['p(95)<60000'] } },
  stages: [5, 10, 15, 20].map((rate, index) => ({ index, from_rate: rate, to_rate: rate, start_ms: index * 12_500, end_ms: (index + 1) * 12_500 })),
  max_in_flight: 64,
  sweep: {
    probes: {
      sequential: { concurrency: 1, start_ms: 0, end_ms: 0, starts: 0, rate_per_s: 2.5 },
      saturation: { concurrency: 32, start_ms: 0, end_ms: 0, starts: 0, rate_per_s: 22.5 },
    },
    start_ms: 0, rate_ms: 12_500, rates: [5, 10, 15, 20], slo: { ttfc_ms: ['p(95)<60000'] },
  },
};

export function writeSyntheticSweep(runDir: string): RecordedLoad {
  writeFileSync(join(runDir, 'timeline.ndjson'), syntheticTimeline().map((l) => `${JSON.stringify(l)}\n`).join(''));
  return SYNTHETIC_SWEEP_LOAD;
}
