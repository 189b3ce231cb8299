// summary.json's model_pairs: each pair of models on the questions both answered, paired per question (Miller 2024).
import type { ModelPair, PairMetric, PairMetricName } from '../domain/summary.js';
import { fromUnits } from '../credits/units.js';
import {
  clusterIndex, detectableDifference, holmAdjust, pairedTest, pairVerdict, questionsNeeded, repeatsNeeded,
  type PairedResult, type PairedStatistic,
} from '../stats/index.js';
import type { CellTotals } from './case-entry.js';

/** One question (case or thread turn) and its cells per model. */
export interface QuestionRow {
  /** The thread (turns of one thread are one cluster), or the case's own key. */
  cluster: string;
  /** The case key (`case:<id>`, `thread:<id>#<turn>`): the order rows are analysed in, whatever order they were read. */
  key: string;
  hash: number;
  cells: ReadonlyMap<string, CellTotals>;
}

/** The significance level of every verdict (after Holm's adjustment across the run's pairs). */
export const PAIR_ALPHA = 0.05;
/** The differences `to_detect` answers for: how many questions or repeats would detect each. */
export const TARGET_DIFFERENCES = [0.05, 0.1] as const;

interface MetricSpec {
  statistic: PairedStatistic;
  lowerIsBetter: boolean;
  /** The per-question value, or null when the question has none for this model. */
  value(cell: CellTotals): number | null;
  digits: number;
}

const judged = (c: CellTotals): number => c.requests - c.notJudged;

const METRICS: Record<PairMetricName, MetricSpec> = {
  pass_rate: { statistic: 'mean', lowerIsBetter: false, value: (c) => (judged(c) > 0 ? c.passed / judged(c) : null), digits: 4 },
  ttfc_ms_p50: { statistic: 'median', lowerIsBetter: true, value: (c) => (c.ttfcCount > 0 ? c.ttfcMsSum / c.ttfcCount : null), digits: 1 },
  latency_ms_p50: { statistic: 'median', lowerIsBetter: true, value: (c) => (c.okCount > 0 ? c.okLatencyMsSum / c.okCount : null), digits: 1 },
  credits_per_answer: { statistic: 'mean', lowerIsBetter: true, value: (c) => (c.requests > 0 ? fromUnits(c.creditUnits) / c.requests : null), digits: 6 },
};
const METRIC_NAMES = Object.keys(METRICS) as PairMetricName[];

interface Paired {
  a: number[];
  b: number[];
  clusters: string[];
  cellsA: CellTotals[];
  cellsB: CellTotals[];
}

function pairUp(rows: readonly QuestionRow[], a: string, b: string, spec: MetricSpec): Paired {
  const out: Paired = { a: [], b: [], clusters: [], cellsA: [], cellsB: [] };
  for (const row of rows) {
    const ca = row.cells.get(a);
    const cb = row.cells.get(b);
    if (!ca || !cb) continue;
    const va = spec.value(ca);
    const vb = spec.value(cb);
    if (va === null || vb === null) continue;
    out.a.push(va);
    out.b.push(vb);
    out.clusters.push(row.cluster);
    out.cellsA.push(ca);
    out.cellsB.push(cb);
  }
  return out;
}

/** Seeded per pair and metric, so a summary is the same every time it is rebuilt. */
function seedOf(i: number, metric: number): number {
  return 0x6b62 + i * 97 + metric * 13;
}

export function buildModelPairs(rows: readonly QuestionRow[], models: readonly string[], sampled: boolean): ModelPair[] {
  const pairs: Array<{ a: string; b: string; questions: number; results: Partial<Record<PairMetricName, PairedResult | null>>; paired: Paired }> = [];
  models.forEach((a, ia) => models.slice(ia + 1).forEach((b) => {
    const results: Partial<Record<PairMetricName, PairedResult | null>> = {};
    let passPaired: Paired | null = null;
    METRIC_NAMES.forEach((name, k) => {
      const spec = METRICS[name];
      const paired = pairUp(rows, a, b, spec);
      if (name === 'pass_rate') passPaired = paired;
      const cluster = clusterIndex(paired.clusters);
      const binarySingle = name === 'pass_rate' && paired.cellsA.every((c, i) => judged(c) === 1 && judged(paired.cellsB[i]!) === 1) &&
        new Set(cluster).size === cluster.length;
      results[name] = pairedTest({ a: paired.a, b: paired.b, cluster }, { statistic: spec.statistic, binarySingle, seed: seedOf(pairs.length, k) });
    });
    pairs.push({ a, b, questions: passPaired!.a.length, results, paired: passPaired! });
  }));
  // Holm across the pairs of the run, one family per metric: more models do not mean more false alarms.
  const adjusted = Object.fromEntries(METRIC_NAMES.map((name) => [name, holmAdjust(pairs.map((p) => p.results[name]?.p_value ?? null))])) as Record<PairMetricName, (number | null)[]>;
  return pairs.map((p, i) => {
    const out: ModelPair = {
      a: p.a, b: p.b, questions: p.questions,
      pass_rate: null, ttfc_ms_p50: null, latency_ms_p50: null, credits_per_answer: null,
      detectable_difference: null, to_detect: [],
      ...(sampled ? { sampled: true } : {}),
    };
    for (const name of METRIC_NAMES) out[name] = metricOf(p.results[name] ?? null, adjusted[name][i] ?? null, METRICS[name]);
    const power = powerOf(p.paired, p.results.pass_rate ?? null);
    out.detectable_difference = power.detectable;
    out.to_detect = power.toDetect;
    return out;
  });
}

function metricOf(r: PairedResult | null, pAdjusted: number | null, spec: MetricSpec): PairMetric | null {
  if (!r) return null;
  const round = (x: number): number => Number(x.toFixed(spec.digits));
  return {
    difference: round(r.difference), ci95: [round(r.ci95[0]), round(r.ci95[1])],
    p_value: Number(r.p_value.toPrecision(4)), p_adjusted: pAdjusted === null ? null : Number(pAdjusted.toPrecision(4)),
    verdict: pairVerdict(r.difference, pAdjusted, spec.lowerIsBetter, PAIR_ALPHA), method: r.method,
  };
}

/** The smallest pass-rate difference this suite detects (80% power at 5%), and what a given one would need. */
function powerOf(p: Paired, r: PairedResult | null): { detectable: number | null; toDetect: ModelPair['to_detect'] } {
  const n = p.a.length;
  if (!r || n < 3) return { detectable: null, toDetect: [] };
  const se = r.se ?? 0;
  // No spread at all (every question answered alike by both): nothing to scale from; say nothing rather than guess.
  if (!(se > 0)) return { detectable: null, toDetect: [] };
  const detectable = detectableDifference(se);
  const split = varianceSplit(p);
  return {
    detectable: Number(detectable.toFixed(4)),
    toDetect: TARGET_DIFFERENCES.map((d) => {
      const questions = questionsNeeded(n, detectable, d);
      return { difference: d, questions, more_questions: questions - n, repeats: split ? repeatsNeeded(split, detectable, d) : null };
    }),
  };
}

/** Variance of the per-question differences, and the part the repeats put there (binomial within a question). */
function varianceSplit(p: Paired): { total: number; within: number; repeats: number } | null {
  const n = p.a.length;
  const d = p.a.map((a, i) => p.b[i]! - a);
  const mean = d.reduce((s, v) => s + v, 0) / n;
  const total = d.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  let within = 0;
  let repeats = Infinity;
  for (let i = 0; i < n; i++) {
    const ka = judged(p.cellsA[i]!);
    const kb = judged(p.cellsB[i]!);
    repeats = Math.min(repeats, ka, kb);
    if (ka < 2 || kb < 2) return null;
    within += (p.a[i]! * (1 - p.a[i]!)) / (ka - 1) + (p.b[i]! * (1 - p.b[i]!)) / (kb - 1);
  }
  return { total, within: within / n, repeats };
}
