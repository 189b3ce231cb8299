// One second of a run as it is recorded (counters plus HDR interval histograms), and the sum
// of timeline lines (stages, 5-second windows, merged shards) with their histograms added exactly.
import { decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';
import { fromUnits, sampleCreditUnits } from '../credits/units.js';
import type { Sample } from '../domain/sample.js';
import { INTERVAL_TIMINGS, type IntervalPercentiles, type IntervalTiming, type TimelineLine } from '../domain/timeline.js';
import { createHistogram, HISTOGRAM_CONFIG, msToUs, valueAtPercentileMs } from './histogram.js';
import { getOwn, setOwn } from './own-record.js';
import { errorKindOf, isRequestError } from './request-stats.js';

/**
 * The shared (flat) configuration, so intervals add to each other and to any histogram of the
 * project exactly. Not the packed layout: its memory follows the values, but reading a percentile
 * or encoding took 10 to 20 times longer (ms per call), which a recorder running every second of
 * a load test cannot afford; a few flat histograms are open at once (the open second, a window).
 */
function createIntervalHistogram(): Histogram {
  return createHistogram();
}

/** Counters and histograms of a set of intervals; also the state of the interval being recorded. */
export class IntervalSum {
  starts = 0;
  /** Starts the schedule planned (open loop); null when none had a schedule. */
  planned: number | null = null;
  /** Starts held back by the cap (the latest line's, or the sum over shards). */
  held: number | null = null;
  /** The oldest in-flight unit's wait, ms (the largest over lines). */
  inFlightOldestMs: number | null = null;
  dropped = 0;
  completed = 0;
  ok = 0;
  inFlight = 0;
  inFlightMax = 0;
  status429 = 0;
  passed = 0;
  failed = 0;
  /** Good answers (goodput.ts: within the SLOs and passed); null when no line said (files before goodput). */
  good: number | null = null;
  creditUnits = 0;
  /** Sum of the lines' target rates (one per second), and how many lines had one. */
  targetSum = 0;
  targetSeconds = 0;
  /** Seconds added (lines), for rates over the sum. */
  seconds = 0;
  loopDelayP99Ms: number | null = null;
  readonly errors: Record<string, number> = Object.create(null) as Record<string, number>;
  private readonly histograms = new Map<IntervalTiming, Histogram>();

  get errorCount(): number {
    let n = 0;
    for (const k in this.errors) n += this.errors[k]!;
    return n;
  }

  /** `good`: whether the answer counts in goodput (goodput.ts); passed when not said. */
  addSample(sample: Sample, good: boolean = sample.pass === true && sample.outcome === 'ok'): void {
    if (sample.outcome === 'skipped') return;
    this.completed += 1;
    if (sample.status === 429) this.status429 += 1;
    if (sample.pass) this.passed += 1;
    else this.failed += 1;
    this.good = (this.good ?? 0) + (good ? 1 : 0);
    this.creditUnits += sampleCreditUnits(sample);
    if (isRequestError(sample)) {
      const kind = errorKindOf(sample);
      setOwn(this.errors, kind, (getOwn(this.errors, kind) ?? 0) + 1);
      return;
    }
    this.ok += 1;
    // Each timing recorded in place (a list of pairs per answer was five arrays per request).
    this.recordTiming('ttfc_ms', sample.ttfc_ms);
    this.recordTiming('latency_ms', sample.latency_ms);
    this.recordTiming('corrected_latency_ms', sample.corrected_latency_ms);
    this.recordTiming('inter_chunk_ms', sample.gap_mean_ms);
  }

  /** What one answer contributes to its interval's timings (answers only, as summary.json's timings). */
  private recordTiming(metric: IntervalTiming, ms: number | null | undefined): void {
    if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return;
    this.histogram(metric).recordValue(msToUs(ms));
  }

  /** Adds a line (another second, or another shard's same second): counters summed, histograms added. */
  addLine(line: TimelineLine): void {
    this.seconds += 1;
    this.starts += line.starts;
    if (line.planned !== undefined) this.planned = (this.planned ?? 0) + line.planned;
    if (line.held !== undefined) this.held = (this.held ?? 0) + line.held;
    if (line.in_flight_oldest_ms !== undefined && line.in_flight_oldest_ms !== null) this.inFlightOldestMs = Math.max(this.inFlightOldestMs ?? 0, line.in_flight_oldest_ms);
    this.dropped += line.dropped;
    this.completed += line.completed;
    this.ok += line.ok;
    this.inFlight += line.in_flight;
    this.inFlightMax += line.in_flight_max;
    this.status429 += line.status_429;
    this.passed += line.passed;
    this.failed += line.failed;
    if (line.good !== undefined) this.good = (this.good ?? 0) + line.good;
    this.creditUnits += line.credit_units;
    if (line.target_rate !== null) {
      this.targetSum += line.target_rate;
      this.targetSeconds += 1;
    }
    if (line.loop_delay_p99_ms !== null) this.loopDelayP99Ms = Math.max(this.loopDelayP99Ms ?? 0, line.loop_delay_p99_ms);
    for (const [kind, n] of Object.entries(line.errors)) setOwn(this.errors, kind, (getOwn(this.errors, kind) ?? 0) + n);
    for (const metric of INTERVAL_TIMINGS) {
      const encoded = line.hdr[metric];
      if (encoded) this.histogram(metric).add(decodeFromCompressedBase64(encoded, HISTOGRAM_CONFIG.bitBucketSize, false));
    }
  }

  /** The value (ms) at a percentile of one timing over several sums, their histograms added as they are (no decoding). */
  static percentileOverMs(sums: readonly IntervalSum[], metric: IntervalTiming, percentile: number, extraMs: Iterable<number> = []): number | null {
    const total = createIntervalHistogram();
    for (const sum of sums) {
      const h = sum.histograms.get(metric);
      if (h) total.add(h);
    }
    for (const ms of extraMs) if (Number.isFinite(ms) && ms >= 0) total.recordValue(msToUs(ms));
    return total.totalCount > 0 ? valueAtPercentileMs(total, percentile) : null;
  }

  /** Adds another sum (windows into a baseline). */
  addSummed(other: IntervalSum): void {
    this.addLine(other.toLine(0, 0, null));
    this.seconds += other.seconds - 1;
  }

  /** The value (ms) at a percentile of one timing over everything added; null when none. */
  percentileMs(metric: IntervalTiming, percentile: number): number | null {
    const h = this.histograms.get(metric);
    return h && h.totalCount > 0 ? valueAtPercentileMs(h, percentile) : null;
  }

  percentiles(metric: IntervalTiming): IntervalPercentiles | null {
    const h = this.histograms.get(metric);
    if (!h || h.totalCount === 0) return null;
    const at = (p: number): number => valueAtPercentileMs(h, p);
    return { count: h.totalCount, p50: at(50), p95: at(95), p99: at(99), max: at(100) };
  }

  encoded(): Partial<Record<IntervalTiming, string>> {
    const hdr: Partial<Record<IntervalTiming, string>> = {};
    for (const metric of INTERVAL_TIMINGS) {
      const h = this.histograms.get(metric);
      if (h && h.totalCount > 0) hdr[metric] = encodeIntoCompressedBase64(h);
    }
    return hdr;
  }

  /** This sum as the line of second `t`. */
  toLine(t: number, offsetMs: number, targetRate: number | null): TimelineLine {
    const line: TimelineLine = {
      t, offset_ms: Math.round(offsetMs * 1000) / 1000, target_rate: targetRate,
      starts: this.starts, dropped: this.dropped, completed: this.completed, ok: this.ok,
      in_flight: this.inFlight, in_flight_max: this.inFlightMax, errors: { ...this.errors }, status_429: this.status429,
      passed: this.passed, failed: this.failed, credit_units: this.creditUnits, credits_used: fromUnits(this.creditUnits),
      ttfc_ms: this.percentiles('ttfc_ms'), latency_ms: this.percentiles('latency_ms'),
      corrected_latency_ms: this.percentiles('corrected_latency_ms'), inter_chunk_ms: this.percentiles('inter_chunk_ms'),
      loop_delay_p99_ms: this.loopDelayP99Ms, hdr: this.encoded(),
    };
    if (this.good !== null) line.good = this.good;
    if (this.planned !== null) line.planned = this.planned;
    if (this.held !== null) line.held = this.held;
    if (this.inFlightOldestMs !== null) line.in_flight_oldest_ms = this.inFlightOldestMs;
    return line;
  }

  private histogram(metric: IntervalTiming): Histogram {
    let h = this.histograms.get(metric);
    if (!h) {
      h = createIntervalHistogram();
      this.histograms.set(metric, h);
    }
    return h;
  }
}
