// summary.json's model_pairs: each pair of models on the questions both answered, paired per question (Miller 2024).
import type { ModelPair, PairMetric, PairMetricName } from '../domain/summary.js';
import { fromUnits } from '../credits/units.js';
import {
  clusterIndex, detectableDifference, pairedTest, pairVerdict, questionsNeeded, repeatsNeeded,
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

/** The family-wise significance level of every verdict (Bonferroni across the run's pairs, one family per metric). */
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

export function buildModelPairs(rows: readonly QuestionRow[], models: readonly string[], sampled: boolean): ModelPair[] {
  const names = models.flatMap((a, ia) => models.slice(ia + 1).map((b) => ({ a, b })));
  // One family per metric, every pair of the run in it: more models do not mean more false alarms.
  const family = names.length;
  return names.map(({ a, b }) => {
    const out: ModelPair = {
      a, b, questions: 0,
      pass_rate: null, ttfc_ms_p50: null, latency_ms_p50: null, credits_per_answer: null,
      detectable_difference: null, to_detect: [],
      ...(sampled ? { sampled: true } : {}),
    };
    for (const name of METRIC_NAMES) {
      const spec = METRICS[name];
      const paired = pairUp(rows, a, b, spec);
      const cluster = clusterIndex(paired.clusters);
      const pass = name === 'pass_rate';
      const binarySingle = pass && paired.cellsA.every((c, i) => judged(c) === 1 && judged(paired.cellsB[i]!) === 1) && new Set(cluster).size === cluster.length;
      const r = pairedTest({ a: paired.a, b: paired.b, cluster }, {
        statistic: spec.statistic, binarySingle, proportion: pass, family, alpha: PAIR_ALPHA, ...(pass ? { bounds: [-1, 1] as [number, number] } : {}),
      });
      out[name] = metricOf(r, spec);
      if (pass) {
        out.questions = paired.a.length;
        const power = powerOf(paired, r);
        out.detectable_difference = power.detectable;
        out.to_detect = power.toDetect;
      }
    }
    return out;
  });
}

function metricOf(r: PairedResult | null, spec: MetricSpec): PairMetric | null {
  if (!r) return null;
  const round = (x: number): number => Number(x.toFixed(spec.digits));
  return {
    difference: round(r.difference), ci95: r.ci95 === null ? null : [round(r.ci95[0]), round(r.ci95[1])],
    p_value: Number(r.p_value.toPrecision(4)), p_adjusted: Number(r.p_adjusted.toPrecision(4)),
    verdict: pairVerdict(r.difference, r.significant, spec.lowerIsBetter), method: r.method,
    ...(r.unreachable ? { unreachable: { smallest_p: Number(r.unreachable.smallest_p.toPrecision(2)), clusters_needed: r.unreachable.clusters_needed } } : {}),
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
