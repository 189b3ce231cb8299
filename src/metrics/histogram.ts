// The project's one HDR histogram configuration, and the helpers that record, read and encode it.
import {
  build,
  decodeFromCompressedBase64,
  encodeIntoCompressedBase64,
  JsHistogram,
  type Histogram,
} from 'hdr-histogram-js';
import type { TimingPercentiles } from '../domain/summary.js';

export type { Histogram };

/** One hour in microseconds: anything slower is clamped (a request that slow has timed out anyway). */
export const HIGHEST_TRACKABLE_US = 3_600_000_000;

/**
 * Every histogram in kbbench uses this configuration, so shards and runs add together exactly.
 * Values are integer microseconds; the pure-JS implementation (no wasm) runs everywhere, and
 * autoResize is off so no histogram drifts away from the shared layout.
 */
export const HISTOGRAM_CONFIG = {
  lowestDiscernibleValue: 1,
  highestTrackableValue: HIGHEST_TRACKABLE_US,
  numberOfSignificantValueDigits: 3,
  bitBucketSize: 32,
  useWebAssembly: false,
  autoResize: false,
} as const;

export function createHistogram(): Histogram {
  return build({ ...HISTOGRAM_CONFIG });
}

/** ms (sub-millisecond float) → integer µs, at least 1 and at most the trackable range. */
export function msToUs(ms: number): number {
  return Math.min(HIGHEST_TRACKABLE_US, Math.max(1, Math.round(ms * 1000)));
}

/**
 * What a histogram cannot keep exactly: the sum and the largest of the recorded values (integer
 * µs, not clamped). HDR answers the max with the top of its bucket (up to 0.1% above any value
 * seen) and the mean from bucket midpoints; with these, summary.json's max is a value that was
 * measured and its mean the true mean, as the exact thresholds see them. Both merge exactly too.
 */
export interface ExactTally {
  count: number;
  sumUs: number;
  /** Meaningful once count > 0 (thresholds read `min` from it). */
  minUs: number;
  maxUs: number;
}

export function createTally(): ExactTally {
  return { count: 0, sumUs: 0, minUs: Number.POSITIVE_INFINITY, maxUs: 0 };
}

/** Records a duration in ms; ignores null, NaN and negative values (nothing was measured). */
export function recordMs(histogram: Histogram, ms: number | null | undefined, tally?: ExactTally): void {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return;
  histogram.recordValue(msToUs(ms));
  if (tally) {
    const us = Math.max(1, Math.round(ms * 1000));
    tally.count++;
    tally.sumUs += us;
    tally.minUs = Math.min(tally.minUs, us);
    tally.maxUs = Math.max(tally.maxUs, us);
  }
}

function usToMs(us: number): number {
  return Math.round(us) / 1000;
}

/** The value (ms) at a percentile (0–100), as HDR reports it: the top of the value's bucket. */
export function valueAtPercentileMs(histogram: Histogram, percentile: number): number {
  return usToMs(histogram.getValueAtPercentile(percentile));
}

/**
 * p50…p99.9, max and mean in ms; null for an empty histogram. With the exact tally of the same
 * values, max and mean are exact and no percentile exceeds the max (a bucket's top can).
 */
export function percentilesMs(histogram: Histogram, tally?: ExactTally): TimingPercentiles | null {
  if (histogram.totalCount === 0) return null;
  const exact = tally !== undefined && tally.count === histogram.totalCount;
  // getValueAtPercentile(100) rather than maxValue: it survives encoding unchanged.
  const max = exact ? tally.maxUs / 1000 : valueAtPercentileMs(histogram, 100);
  const at = (p: number): number => Math.min(max, valueAtPercentileMs(histogram, p));
  return {
    count: histogram.totalCount,
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    p999: at(99.9),
    max,
    mean: Math.round(exact ? tally.sumUs / tally.count : histogram.mean) / 1000,
  };
}

/**
 * Percentiles of a list of durations (ms), by the same method as summary.json: recorded into the
 * shared HDR configuration with an exact tally, then read by percentilesMs. compare pools the
 * timings of matched items and reads them here, so its p95 of a run equals summary.json's p95 of
 * the same requests: one percentile method in kbbench (issue 24), not an exact nearest rank beside
 * HDR's bucket tops (the two differed by up to 0.1%). Values summary.json would not record
 * (negative, NaN) are left out here too.
 */
export function percentilesOfMs(valuesMs: Iterable<number>): TimingPercentiles | null {
  const histogram = createHistogram();
  const tally = createTally();
  for (const ms of valuesMs) recordMs(histogram, ms, tally);
  return percentilesMs(histogram, tally);
}

/**
 * One metric of one set of requests as thresholds read it, in the metric's own unit (ms, credits):
 * count, sum, min, max and mean exact (from the tally), percentiles from the HDR histogram (3
 * significant digits, nearest rank, the top of the value's bucket, capped at the exact max).
 */
export interface MetricReadout {
  count: number;
  sum: number;
  min: number;
  max: number;
  mean: number;
  /** p in (0, 100]. */
  percentile(p: number): number;
}

/** A timing's readout: the same numbers percentilesMs writes to summary.json (its mean rounded to the µs). */
export function timingReadout(histogram: Histogram, tally: ExactTally): MetricReadout | null {
  if (tally.count === 0) return null;
  const max = tally.maxUs / 1000;
  return {
    count: tally.count,
    sum: tally.sumUs / 1000,
    min: tally.minUs / 1000,
    max,
    mean: Math.round(tally.sumUs / tally.count) / 1000,
    percentile: (p) => Math.min(max, valueAtPercentileMs(histogram, p)),
  };
}

export function encodeHistogram(histogram: Histogram): string {
  return encodeIntoCompressedBase64(histogram);
}

/** Decodes into a histogram of the shared configuration, so it can be added to any other. */
export function decodeHistogram(base64: string): Histogram {
  const decoded = decodeFromCompressedBase64(base64, HISTOGRAM_CONFIG.bitBucketSize, false);
  const histogram = createHistogram();
  histogram.add(decoded);
  return histogram;
}

/** A new histogram holding the sum of the given ones. */
export function addHistograms(histograms: readonly Histogram[]): Histogram {
  const sum = createHistogram();
  for (const h of histograms) sum.add(h);
  return sum;
}

/** Percentiles every curve includes exactly, so charts can mark them. */
export const CURVE_MARKS = [50, 90, 99, 99.9, 99.99] as const;

/** [percentile, ms] points on a log percentile axis (0, 90, 99, 99.9…), as HDR plots draw them. */
export function percentileCurveMs(histogram: Histogram, pointsPerDecade = 10): Array<[number, number]> {
  if (histogram.totalCount === 0) return [];
  // Beyond 1/count the curve is flat at the max: stop one decade past the data's resolution.
  const decades = Math.min(6, Math.max(1, Math.ceil(Math.log10(histogram.totalCount))));
  const percentiles = new Set<number>(CURVE_MARKS.filter((p) => p < 100 - 100 * 10 ** -decades));
  for (let i = 0; i < decades * pointsPerDecade; i++) {
    percentiles.add(Number((100 * (1 - 10 ** (-i / pointsPerDecade))).toPrecision(12)));
  }
  percentiles.add(100);
  return [...percentiles].sort((a, b) => a - b).map((p) => [p, valueAtPercentileMs(histogram, p)]);
}

/**
 * How many recorded values fall in each [edges[i], edges[i+1]) ms bin (values past the last edge
 * go to the last bin). Walks the counts array of the pure-JS histogram: exact to its precision.
 */
export function binCountsMs(histogram: Histogram, edgesMs: readonly number[]): number[] {
  const counts = new Array<number>(Math.max(0, edgesMs.length - 1)).fill(0);
  if (!(histogram instanceof JsHistogram) || counts.length === 0) return counts;
  for (let index = 0; index < histogram.countsArrayLength; index++) {
    const count = histogram.getCountAtIndex(index);
    if (count === 0) continue;
    const valueMs = histogram.medianEquivalentValue(histogram.valueFromIndex(index)) / 1000;
    counts[binIndex(edgesMs, valueMs)]! += count;
  }
  return counts;
}

function binIndex(edgesMs: readonly number[], valueMs: number): number {
  let lo = 0;
  let hi = edgesMs.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (valueMs >= edgesMs[mid]!) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
