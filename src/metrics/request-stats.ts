// Streaming statistics of a set of requests (one model's, or the whole run's): counters plus HDR histograms.
import type { Sample } from '../domain/sample.js';
import { TIMING_METRICS, type RequestStats, type TimingMetric } from '../domain/summary.js';
import { createHistogram, percentilesMs, recordMs, type Histogram } from './histogram.js';

export interface RequestStatsAccumulator {
  add(sample: Sample): void;
  readonly histograms: Map<TimingMetric, Histogram>;
  toStats(): RequestStats;
}

interface Counters {
  requests: number;
  ok: number;
  errors: number;
  skipped: number;
  passed: number;
  retries: number;
  chars: number;
  streamedChars: number;
  streamedMs: number;
  answerCredits: number;
  checkCredits: number;
  creditsKnown: number;
  creditsUnknown: number;
  creditsRemaining: number | null;
}

/** The kind an error is counted under: its stable code, else the outcome. */
export function errorKindOf(sample: Sample): string {
  return sample.error?.code ?? sample.outcome;
}

export function isRequestError(sample: Sample): boolean {
  return sample.outcome !== 'ok' && sample.outcome !== 'skipped';
}

/** Rounds away float noise from sums of credits (0.1 + 0.2) without losing real precision. */
export function roundCredits(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

export function createRequestStats(): RequestStatsAccumulator {
  const c: Counters = {
    requests: 0, ok: 0, errors: 0, skipped: 0, passed: 0, retries: 0, chars: 0, streamedChars: 0,
    streamedMs: 0, answerCredits: 0, checkCredits: 0, creditsKnown: 0, creditsUnknown: 0, creditsRemaining: null,
  };
  const errorsByKind: Record<string, number> = {};
  const histograms = new Map<TimingMetric, Histogram>(TIMING_METRICS.map((m) => [m, createHistogram()]));

  const add = (sample: Sample): void => {
    // A skipped turn was never sent: it costs nothing and has no timings.
    if (sample.outcome === 'skipped') {
      c.skipped++;
      return;
    }
    c.requests++;
    if (sample.outcome === 'ok') c.ok++;
    else {
      c.errors++;
      const kind = errorKindOf(sample);
      errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
    }
    if (sample.pass) c.passed++;
    c.retries += Math.max(0, sample.attempts - 1);
    addChars(c, sample);
    addCredits(c, sample);
    // Timings describe answers: a refused or broken request's duration would mix two populations.
    if (sample.outcome === 'ok') recordTimings(histograms, sample);
  };

  const toStats = (): RequestStats => statsOf(c, errorsByKind, histograms);

  return { add, histograms, toStats };
}

function statsOf(c: Counters, errorsByKind: Record<string, number>, histograms: Map<TimingMetric, Histogram>): RequestStats {
  const creditsUsed = roundCredits(c.answerCredits + c.checkCredits);
  const at = (metric: TimingMetric) => percentilesMs(histograms.get(metric)!);
  return {
    requests: c.requests,
    ok: c.ok,
    errors: c.errors,
    skipped: c.skipped,
    passed: c.passed,
    failed: c.requests - c.passed,
    pass_rate: ratio(c.passed, c.requests),
    errors_by_kind: { ...errorsByKind },
    retries: c.retries,
    chars: c.chars,
    chars_per_s: c.streamedMs > 0 ? Math.round((c.streamedChars / c.streamedMs) * 1000 * 10) / 10 : null,
    credits_used: creditsUsed,
    check_credits_used: roundCredits(c.checkCredits),
    credits_unknown: c.creditsUnknown,
    credits_per_request: ratio(creditsUsed, c.creditsKnown),
    credits_per_passed: ratio(creditsUsed, c.passed),
    credits_remaining: c.creditsRemaining,
    ttfc_ms: at('ttfc_ms'),
    latency_ms: at('latency_ms'),
    ttfb_ms: at('ttfb_ms'),
    gap_max_ms: at('gap_max_ms'),
    corrected_latency_ms: at('corrected_latency_ms'),
  };
}

function addChars(c: Counters, sample: Sample): void {
  c.chars += sample.chars;
  // Streaming speed: characters over the first-to-last-chunk window; a JSON answer has no window.
  const { ttfc_ms: first, last_chunk_ms: last } = sample;
  if (first !== null && last !== null && last > first) {
    c.streamedChars += sample.chars;
    c.streamedMs += last - first;
  }
}

function addCredits(c: Counters, sample: Sample): void {
  if (sample.credits_used !== null) {
    c.answerCredits += sample.credits_used;
    c.creditsKnown++;
  }
  if (sample.credits_unknown) c.creditsUnknown++;
  for (const check of sample.checks) c.checkCredits += check.credits_used ?? 0;
  if (sample.credits_remaining !== null) c.creditsRemaining = sample.credits_remaining;
}

function recordTimings(histograms: Map<TimingMetric, Histogram>, sample: Sample): void {
  recordMs(histograms.get('ttfc_ms')!, sample.ttfc_ms);
  recordMs(histograms.get('latency_ms')!, sample.latency_ms);
  recordMs(histograms.get('ttfb_ms')!, sample.ttfb_ms);
  recordMs(histograms.get('gap_max_ms')!, sample.gap_max_ms);
  recordMs(histograms.get('corrected_latency_ms')!, sample.corrected_latency_ms);
}
