// Latency over the run's time, per model, in a bounded number of time buckets (widened as the run grows).
import type { Sample } from '../domain/sample.js';
import { setOwn } from './own-record.js';
import { isRequestError } from './request-stats.js';

export interface TimelinePoint {
  /** Middle of the bucket, ms since the run started. */
  t_ms: number;
  /** Requests that started in the bucket and have a latency: answers and errors alike. */
  count: number;
  mean_latency_ms: number | null;
  max_latency_ms: number | null;
  errors: number;
}

export interface Timeline {
  bucket_ms: number;
  series: Record<string, TimelinePoint[]>;
}

interface Bucket {
  count: number;
  sumMs: number;
  maxMs: number;
  errors: number;
}

/** Enough points for a chart; past this the bucket width doubles, so memory never grows with the run. */
export const MAX_TIMELINE_BUCKETS = 240;
const INITIAL_BUCKET_MS = 1000;

export interface TimelineAccumulator {
  add(sample: Sample): void;
  toTimeline(modelOrder: readonly string[]): Timeline;
}

export function createTimeline(maxBuckets = MAX_TIMELINE_BUCKETS): TimelineAccumulator {
  let bucketMs = INITIAL_BUCKET_MS;
  let buckets = new Map<number, Map<string, Bucket>>();

  const widen = (): void => {
    bucketMs *= 2;
    const merged = new Map<number, Map<string, Bucket>>();
    for (const [index, byModel] of buckets) {
      const target = merged.get(index >> 1) ?? new Map<string, Bucket>();
      for (const [model, b] of byModel) mergeInto(target, model, b);
      merged.set(index >> 1, target);
    }
    buckets = merged;
  };

  const add = (sample: Sample): void => {
    if (sample.outcome === 'skipped') return;
    const index = Math.max(0, Math.floor(sample.offset_ms / bucketMs));
    const byModel = buckets.get(index) ?? new Map<string, Bucket>();
    // Every request with a time counts: a third of requests refused fast must pull the line down
    // (and show in `errors`), not leave a flat line of the answers that got through.
    const timed = sample.latency_ms !== null && Number.isFinite(sample.latency_ms);
    mergeInto(byModel, sample.model, {
      count: timed ? 1 : 0,
      sumMs: timed ? sample.latency_ms! : 0,
      maxMs: timed ? sample.latency_ms! : 0,
      errors: isRequestError(sample) ? 1 : 0,
    });
    buckets.set(index, byModel);
    while (buckets.size > maxBuckets) widen();
  };

  const toTimeline = (modelOrder: readonly string[]): Timeline => {
    const indexes = [...buckets.keys()].sort((a, b) => a - b);
    const series: Record<string, TimelinePoint[]> = {};
    for (const model of modelOrder) {
      const points = indexes.flatMap((index) => {
        const b = buckets.get(index)!.get(model);
        return b ? [toPoint(index, bucketMs, b)] : [];
      });
      setOwn(series, model, points);
    }
    return { bucket_ms: bucketMs, series };
  };

  return { add, toTimeline };
}

function mergeInto(target: Map<string, Bucket>, model: string, b: Bucket): void {
  const existing = target.get(model);
  if (!existing) {
    target.set(model, { ...b });
    return;
  }
  existing.count += b.count;
  existing.sumMs += b.sumMs;
  existing.maxMs = Math.max(existing.maxMs, b.maxMs);
  existing.errors += b.errors;
}

function toPoint(index: number, bucketMs: number, b: Bucket): TimelinePoint {
  return {
    t_ms: index * bucketMs + bucketMs / 2,
    count: b.count,
    mean_latency_ms: b.count > 0 ? Math.round((b.sumMs / b.count) * 1000) / 1000 : null,
    max_latency_ms: b.count > 0 ? Math.round(b.maxMs * 1000) / 1000 : null,
    errors: b.errors,
  };
}
