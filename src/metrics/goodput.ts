// Goodput (DistServe's term): which answers count as good, an answer that arrived within the run's
// SLOs and passed its checks, so a service that answers fast but wrong under load shows it.
import type { LoadSpec, StageSummary } from '../domain/load.js';
import type { GoodputSummary } from '../domain/summary.js';
import type { Sample } from '../domain/sample.js';
import { parseThreshold, type ParsedThreshold } from './threshold-parser.js';
import { matchesTags } from './thresholds-scope.js';

/** The timings an SLO may bound per answer; the other SLO metrics (pass_rate, errors…) are the checks' or the run's. */
const ANSWER_TIMINGS = ['ttfc_ms', 'latency_ms', 'ttfb_ms', 'corrected_latency_ms'] as const;
type AnswerTiming = (typeof ANSWER_TIMINGS)[number];
/** Aggregations of one answer's value: `p(95)<1500` bounds each answer at 1500 ms; a count or a sum bounds none. */
const PER_ANSWER = new Set(['avg', 'min', 'max', 'med', 'p']);

export interface AnswerBound {
  metric: AnswerTiming;
  scope: Record<string, string>;
  operator: ParsedThreshold['operator'];
  value: number;
  /** `ttfc_ms<1500`: how the bound reads on one answer. */
  words: string;
}

export type GoodAnswer = (sample: Sample) => boolean;

/** The per-answer bounds of SLO definitions (`{ ttfc_ms: ['p(95)<1500'] }`, a sweep's `slo`). */
export function answerBoundsOf(slo: Readonly<Record<string, readonly string[]>> | undefined): AnswerBound[] {
  const bounds: AnswerBound[] = [];
  for (const [key, expressions] of Object.entries(slo ?? {})) {
    for (const expression of expressions) {
      const parsed = parseThreshold(key, expression);
      if (!(ANSWER_TIMINGS as readonly string[]).includes(parsed.metric) || !PER_ANSWER.has(parsed.aggregation.name)) continue;
      const scoped = key.slice(parsed.metric.length);
      bounds.push({ metric: parsed.metric as AnswerTiming, scope: parsed.scope, operator: parsed.operator, value: parsed.value, words: `${parsed.metric}${scoped}${parsed.operator}${parsed.value}` });
    }
  }
  return bounds;
}

/**
 * Whether an answer is good: it arrived (outcome ok), passed its checks (not judged is not good) and
 * each SLO timing that scopes it is within its bound on this answer alone. With no SLO, every answer
 * that passed its checks.
 */
export function goodAnswerOf(bounds: readonly AnswerBound[]): GoodAnswer {
  return (sample) => {
    if (sample.outcome !== 'ok' || sample.pass !== true) return false;
    for (const bound of bounds) {
      if (!matchesTags(sample, bound.scope)) continue;
      const ms = timingOf(sample, bound.metric);
      if (ms === null || !compare(ms, bound.operator, bound.value)) return false;
    }
    return true;
  };
}

/** The SLOs a load spec carries (a sweep's `--slo`); none for the kinds without SLOs. */
export function sloOfLoad(spec: LoadSpec | undefined): Readonly<Record<string, readonly string[]>> {
  return spec !== undefined && 'slo' in spec ? spec.slo : {};
}

/** What goodput counts, in words (summary.json `goodput.definition`, the console, report.html). */
export function goodputDefinition(bounds: readonly AnswerBound[]): string {
  if (bounds.length === 0) return 'answers that passed their checks, with no time bound (no --slo)';
  return `answers that passed their checks with ${bounds.map((b) => b.words).join(' and ')} each`;
}

/** A closed loop has no intended start: its corrected latency is its latency. */
function timingOf(sample: Sample, metric: AnswerTiming): number | null {
  const ms = metric === 'corrected_latency_ms' ? (sample.corrected_latency_ms ?? sample.latency_ms) : sample[metric];
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : null;
}

function compare(x: number, operator: AnswerBound['operator'], value: number): boolean {
  switch (operator) {
    case '<': return x < value;
    case '<=': return x <= value;
    case '>': return x > value;
    case '>=': return x >= value;
    case '==': return x === value;
    case '!=': return x !== value;
  }
}

/**
 * The knee by goodput: the stage (or sweep rate) that gave the most good answers per second, the
 * lowest-load one when tied. Past the knee, offering more load gives fewer good answers: the
 * latency knee's question asked of the answers a user can use.
 */
export function goodputKnee(stages: readonly StageSummary[] | undefined): GoodputSummary['knee'] {
  let best: StageSummary | null = null;
  // One load offered has no knee to find: only a run of several stages or rates says where goodput turned.
  if (new Set((stages ?? []).filter((s) => typeof s.goodput === 'number').map((s) => (s.from_rate + s.to_rate) / 2)).size < 2) return null;
  for (const stage of stages ?? []) {
    if (typeof stage.goodput !== 'number') continue;
    if (best === null || stage.goodput > best.goodput!) best = stage;
  }
  if (best === null) return null;
  const last = stages!.at(-1)!;
  return { stage: best.index, target_rate: best.to_rate, achieved_rate: best.achieved_rate, goodput: best.goodput!, is_last: best.index === last.index };
}

/** `judgeShare`: --judge-sample's P; the definition then says that unsampled answers are not counted good. */
export function goodputSummary(bounds: readonly AnswerBound[], stages: readonly StageSummary[] | undefined, judgeShare?: number): GoodputSummary {
  const share = judgeShare === undefined ? '' : `; ${judgeShareWords(judgeShare)}: the others are not judged, so not counted good`;
  return {
    definition: `${goodputDefinition(bounds)}${share}`, slo_bounds: bounds.map((b) => b.words), knee: goodputKnee(stages),
    ...(judgeShare !== undefined ? { judge_sample: judgeShare } : {}),
  };
}

/** `model-graded checks graded on a seeded 25% of the answers (--judge-sample 0.25)`: one wording for every figure it affects. */
export function judgeShareWords(share: number): string {
  return `model-graded checks graded on a seeded ${Number((share * 100).toPrecision(4))}% of the answers (--judge-sample ${share})`;
}
