// One rate of a sweep, judged (GuideLLM's sweep profile): what that constant rate achieved, its
// latency percentiles, error and pass rates, and whether it met every SLO (the threshold grammar,
// answer quality included through pass_rate). Kept apart so a stage table can share it later.
import { createThresholdSinks } from '../checks/thresholds-sinks.js';
import type { ThresholdResult } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { createRequestStats } from './request-stats.js';
import { isStart } from './summarizer.js';

export interface SweepPercentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface SweepRate {
  target_rate: number;
  /** Starts per second achieved over the rate's duration (a start is a case, or a whole thread). */
  achieved_rate: number;
  starts: number;
  requests: number;
  ttfc_ms: SweepPercentiles | null;
  latency_ms: SweepPercentiles | null;
  /** Failed requests / requests; null when nothing was sent. */
  error_rate: number | null;
  pass_rate: number | null;
  slo: ThresholdResult[];
  /** Every SLO met (and something was sent). */
  meets_slo: boolean;
}

const round = (x: number, places = 3): number => Math.round(x * 10 ** places) / 10 ** places;

export function evaluateSweepRate(samples: Iterable<Sample>, options: { targetRate: number; durationMs: number; slos: Record<string, readonly string[]> }): SweepRate {
  const stats = createRequestStats({ timings: ['ttfc_ms', 'latency_ms'] });
  const sinks = createThresholdSinks(options.slos);
  let starts = 0;
  for (const sample of samples) {
    if (sample.warmup === true || sample.endpoint === 'create') continue;
    if (isStart(sample)) starts += 1;
    stats.add(sample);
    sinks.add(sample);
  }
  const counts = stats.counts();
  const percentiles = (metric: 'ttfc_ms' | 'latency_ms'): SweepPercentiles | null => {
    const t = stats.toStats()[metric];
    return t === null ? null : { p50: t.p50, p95: t.p95, p99: t.p99 };
  };
  const slo = sinks.evaluate();
  return {
    target_rate: options.targetRate,
    achieved_rate: options.durationMs > 0 ? round((starts / options.durationMs) * 1000) : 0,
    starts,
    requests: counts.requests,
    ttfc_ms: percentiles('ttfc_ms'),
    latency_ms: percentiles('latency_ms'),
    error_rate: counts.requests > 0 ? round(counts.errors / counts.requests, 4) : null,
    pass_rate: counts.requests > 0 ? round(counts.passed / counts.requests, 4) : null,
    slo,
    meets_slo: counts.requests > 0 && slo.every((r) => r.pass),
  };
}

/** The highest achieved rate that met every SLO (goodput's knee); null when none did. */
export function sloMaxRate(rates: readonly SweepRate[]): number | null {
  const met = rates.filter((r) => r.meets_slo).map((r) => r.achieved_rate);
  return met.length === 0 ? null : Math.max(...met);
}

/** The N constant rates a sweep runs: evenly between the one-at-a-time and the saturation rate, both excluded. */
export function sweepRates(oneAtATimeRate: number, saturationRate: number, n: number): number[] {
  const low = Math.min(oneAtATimeRate, saturationRate);
  const high = Math.max(oneAtATimeRate, saturationRate);
  return Array.from({ length: n }, (_, i) => round(low + ((high - low) * (i + 1)) / (n + 1)));
}
