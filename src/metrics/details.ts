// Chart-ready data derived from the histograms (percentile curves, a latency distribution). Latency
// over time is the load analysis' per-second series (load-analysis.ts), the one such series.
import type { TimingMetric } from '../domain/summary.js';
import type { HistogramSet } from './histogram-file.js';
import { binCountsMs, percentileCurveMs, valueAtPercentileMs, type Histogram } from './histogram.js';
import { setOwn } from './own-record.js';

/** [percentile 0–100, value ms] */
export type CurvePoint = [number, number];

export interface Distribution {
  metric: TimingMetric;
  /** Bin edges in ms, log-spaced: bin i is [edges_ms[i], edges_ms[i+1]). */
  edges_ms: number[];
  counts: Record<string, number[]>;
}

export interface RunDetails {
  /** Models in report order. */
  models: string[];
  curves: Record<string, Partial<Record<'ttfc_ms' | 'latency_ms', CurvePoint[]>>>;
  distribution: Distribution | null;
}

/** Few samples spread over many bins draw noise: about 2·√n bins, between 8 and 32. */
function binsFor(count: number): number {
  return Math.min(32, Math.max(8, Math.round(2 * Math.sqrt(count))));
}

export function buildDetails(models: readonly string[], histograms: HistogramSet): RunDetails {
  const curves: RunDetails['curves'] = {};
  for (const model of models) {
    const byMetric = histograms.get(model);
    setOwn(curves, model, {
      ttfc_ms: byMetric?.get('ttfc_ms') ? percentileCurveMs(byMetric.get('ttfc_ms')!) : [],
      latency_ms: byMetric?.get('latency_ms') ? percentileCurveMs(byMetric.get('latency_ms')!) : [],
    });
  }
  return { models: [...models], curves, distribution: buildDistribution(models, histograms, 'latency_ms') };
}

function buildDistribution(models: readonly string[], histograms: HistogramSet, metric: TimingMetric): Distribution | null {
  const present = models
    .map((model) => [model, histograms.get(model)?.get(metric)] as const)
    .filter((entry): entry is readonly [string, Histogram] => entry[1] !== undefined && entry[1].totalCount > 0);
  if (present.length === 0) return null;
  const lowMs = Math.min(...present.map(([, h]) => valueAtPercentileMs(h, 0)));
  const highMs = Math.max(...present.map(([, h]) => valueAtPercentileMs(h, 100)));
  const total = present.reduce((sum, [, h]) => sum + h.totalCount, 0);
  const edges = logEdgesMs(lowMs, highMs, binsFor(total / present.length));
  const counts: Record<string, number[]> = {};
  for (const [model, histogram] of present) setOwn(counts, model, binCountsMs(histogram, edges));
  return { metric, edges_ms: edges, counts };
}

/** Log-spaced edges covering [low, high] with a little margin, so both ends fall inside a bin. */
export function logEdgesMs(lowMs: number, highMs: number, bins: number): number[] {
  const low = Math.max(0.001, lowMs) * 0.98;
  const high = Math.max(highMs * 1.02, low * 1.5);
  const step = Math.log(high / low) / bins;
  return Array.from({ length: bins + 1 }, (_, i) => Math.round(low * Math.exp(step * i) * 1000) / 1000);
}
