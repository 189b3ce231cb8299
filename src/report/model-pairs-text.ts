// Words for model_pairs and the flaky list, shared by the console and report.html: one way to say a difference.
import type { ModelPair, PairMetric, PairMetricName } from '../domain/summary.js';
import { formatMs, modelLabel } from './format.js';

export const PAIR_METRICS: ReadonlyArray<{ key: PairMetricName; name: string; unit: 'pts' | 'ms' | 'credits' }> = [
  { key: 'pass_rate', name: 'pass rate', unit: 'pts' },
  { key: 'ttfc_ms_p50', name: 'TTFC p50', unit: 'ms' },
  { key: 'latency_ms_p50', name: 'latency p50', unit: 'ms' },
  { key: 'credits_per_answer', name: 'credits/answer', unit: 'credits' },
];

export const NO_DIFFERENCE = 'no detectable difference';

const sign = (x: number): string => (x > 0 ? '+' : x < 0 ? '−' : '');

/** A signed amount in the metric's unit: `+4.0 pts`, `−120 ms`, `+0.00012`. */
export function formatDifference(x: number, unit: 'pts' | 'ms' | 'credits'): string {
  const abs = Math.abs(x);
  if (unit === 'pts') return `${sign(x)}${(abs * 100).toFixed(1)} pts`;
  if (unit === 'ms') return `${sign(x)}${formatMs(abs)} ms`;
  return `${sign(x)}${abs.toPrecision(2)}`;
}

export function formatPValue(p: number | null): string {
  if (p === null) return '–';
  return p < 0.001 ? '<0.001' : p.toPrecision(2);
}

/** `★ b better` or `no detectable difference`. */
export function verdictWords(pair: ModelPair, metric: PairMetric): string {
  if (metric.verdict === 'no_difference') return NO_DIFFERENCE;
  return `★ ${modelLabel(metric.verdict === 'a_better' ? pair.a : pair.b)} better`;
}

/** `+4.0 pts [−8.1, +16.0] p=0.61 no detectable difference`. */
export function metricLine(pair: ModelPair, metric: PairMetric, unit: 'pts' | 'ms' | 'credits'): string {
  const [lo, hi] = metric.ci95;
  return `${formatDifference(metric.difference, unit)} [${formatDifference(lo, unit)}, ${formatDifference(hi, unit)}] p=${formatPValue(metric.p_adjusted)} ${verdictWords(pair, metric)}`;
}

/** How big a pass-rate difference this suite sees, and what 10 points would need. */
export function powerWords(pair: ModelPair): string | null {
  if (pair.detectable_difference === null) return null;
  const ten = pair.to_detect.find((t) => t.difference === 0.1);
  const detects = `detects ≥ ${(pair.detectable_difference * 100).toFixed(1)} pts (80% power)`;
  if (!ten || ten.more_questions === 0) return detects;
  const repeats = ten.repeats === null ? '' : ` or ${ten.repeats} repeats`;
  return `${detects}; 10 pts needs ${ten.questions} questions${repeats}`;
}
