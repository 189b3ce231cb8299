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

/** What a design that can never reach a call says instead of a p-value. */
export function unreachableWords(metric: PairMetric): string | null {
  if (!metric.unreachable) return null;
  const { smallest_p: smallest, clusters_needed: needed } = metric.unreachable;
  return `too few questions to tell: the smallest p any result could reach here is ${smallest.toPrecision(2)} (needs ${needed} questions, a thread counting once)`;
}

/** `+4.0 pts [−8.1, +16.0] p=0.61 no detectable difference`, or the estimate and why no call can be made. */
export function metricLine(pair: ModelPair, metric: PairMetric, unit: 'pts' | 'ms' | 'credits'): string {
  const estimate = formatDifference(metric.difference, unit);
  const unreachable = unreachableWords(metric);
  if (unreachable !== null || metric.ci95 === null) return `${estimate} ${unreachable ?? NO_DIFFERENCE}`;
  const [lo, hi] = metric.ci95;
  return `${estimate} [${formatDifference(lo, unit)}, ${formatDifference(hi, unit)}] p=${formatPValue(metric.p_adjusted)} ${verdictWords(pair, metric)}`;
}

/** The header's account of the intervals: 95% for one pair; with more, each at 1 − 0.05/m so the run's calls hold 95% together. */
export function intervalWords(pairs: number): string {
  return pairs <= 1
    ? '95% interval; the verdict is read from it'
    : `intervals at ${formatLevel(1 - 0.05 / pairs)} (95% across the ${pairs} pairs, Bonferroni); the verdict is read from them; p adjusted alike`;
}

const formatLevel = (level: number): string => `${Number((level * 100).toPrecision(4))}%`;

/** How big a pass-rate difference this suite sees, and what 10 points would need. */
export function powerWords(pair: ModelPair): string | null {
  if (pair.detectable_difference === null) return null;
  const ten = pair.to_detect.find((t) => t.difference === 0.1);
  const detects = `detects ≥ ${(pair.detectable_difference * 100).toFixed(1)} pts (80% power)`;
  if (!ten || ten.more_questions === 0) return detects;
  const repeats = ten.repeats === null ? '' : ` or ${ten.repeats} repeats`;
  return `${detects}; 10 pts needs ${ten.questions} questions${repeats}`;
}

/** The two classes of a question × model that failed some repeats, in the words the console and report.html share. */
export const CLASS_TITLES = {
  flaky: 'flaky (answered repeats disagreed)',
  failed_to_answer: 'failed to answer (request errors: 429, timeout, cut; not flaky)',
} as const;

/** `refund-window  gpt-4o-mini  1/3 passed, 2 errors`. */
export function classEntryWords(f: { label: string; model: string; passed: number; judged: number; errors?: number }): string {
  return `${f.label}  ${modelLabel(f.model)}  ${f.passed}/${f.judged} passed${f.errors ? `, ${f.errors} errors` : ''}`;
}
