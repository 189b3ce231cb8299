// k6-style thresholds: validated before a run starts, judged on a scope's aggregates (counters + HDR histograms).
import { InputError } from '../domain/errors.js';
import type { ThresholdResult } from '../domain/run.js';
import type { MetricReadout } from './histogram.js';
import { parseThreshold, parseThresholdKey, type ParsedThreshold } from './threshold-parser.js';
import type { ThresholdOperator } from './threshold-grammar.js';

export type TimingThresholdMetric = 'ttfc_ms' | 'latency_ms' | 'ttfb_ms' | 'corrected_latency_ms';

/**
 * What one scope's accumulator offers a threshold, with summary.json's inclusion rules already
 * applied: `requests` are the requests it selects (skipped turns only when the scope names an
 * outcome), timings are answers' unless the scope names an outcome, credits include the judges'.
 */
export interface ThresholdAggregates {
  requests: number;
  /** Selected requests whose outcome is not ok. */
  errors: number;
  passed: number;
  /** Requests whose checks could not all be judged: left out of pass_rate (neither passed nor failed). */
  notJudged?: number;
  /** Answers taken from earlier runs (--reuse-answers): their timings are not this run's. */
  reusedApart?: number;
  timing(metric: TimingThresholdMetric): MetricReadout | null;
  /** Credits per request over the requests whose credits are known (or whose checks spent some). */
  credits(): MetricReadout | null;
  /** summary.json's credits_per_request: everything spent over the requests whose credits are known. */
  creditsPerRequest: number | null;
  /** The run's dropped starts and its planned starts (known once the run is over; absent while it runs). */
  dropped?: { count: number; planned: number };
}

function readValue(parsed: ParsedThreshold, readout: MetricReadout | null): number | null {
  const { aggregation } = parsed;
  if (aggregation.name === 'count') return readout?.count ?? 0;
  if (readout === null) return null;
  switch (aggregation.name) {
    case 'sum':
      return readout.sum;
    case 'avg':
    case 'value':
      return readout.mean;
    case 'min':
      return readout.min;
    case 'max':
      return readout.max;
    case 'med':
      return readout.percentile(50);
    case 'p':
      return readout.percentile(aggregation.p ?? 100);
    case 'rate':
      return null;
  }
}

/**
 * The aggregated value, or null when there is nothing to aggregate. Only `count` is a number on
 * empty data (0 requests, 0 errors is a fact); a rate, mean or percentile of nothing is
 * undefined, and a scope that matches no sample is more often a typo than a success, so those
 * fail rather than pass vacuously.
 */
export function aggregateThreshold(parsed: ParsedThreshold, aggregates: ThresholdAggregates): number | null {
  const { metric, aggregation } = parsed;
  const { requests } = aggregates;
  switch (metric) {
    case 'pass_rate': {
      const judged = requests - (aggregates.notJudged ?? 0);
      return judged > 0 ? aggregates.passed / judged : null;
    }
    case 'errors':
      if (aggregation.name === 'rate') return requests > 0 ? aggregates.errors / requests : null;
      return aggregates.errors;
    case 'credits_per_request':
      return aggregates.creditsPerRequest;
    case 'dropped':
      // Known only once the run is over: a live judge (abortOnFail) sees nothing to judge yet.
      if (aggregates.dropped === undefined) return null;
      if (aggregation.name === 'rate') return aggregates.dropped.planned > 0 ? aggregates.dropped.count / aggregates.dropped.planned : 0;
      return aggregates.dropped.count;
    case 'credits_used':
      return readValue(parsed, aggregates.credits());
    default:
      return readValue(parsed, aggregates.timing(metric));
  }
}

export function compareThreshold(value: number, operator: ThresholdOperator, target: number): boolean {
  switch (operator) {
    case '<':
      return value < target;
    case '<=':
      return value <= target;
    case '>':
      return value > target;
    case '>=':
      return value >= target;
    case '==':
      return value === target;
    case '!=':
      return value !== target;
  }
}

const TIMING_THRESHOLDS: ReadonlySet<ParsedThreshold['metric']> = new Set<TimingThresholdMetric>(['ttfc_ms', 'latency_ms', 'ttfb_ms', 'corrected_latency_ms']);

/** Why a threshold is not judged: a timing of a scope whose every answer was reused was never measured by this run. */
export const EVERY_ANSWER_REUSED = 'every answer was reused';

/** summary.json's entry for one threshold judged on its scope's aggregates. */
export function judgeThreshold(parsed: ParsedThreshold, aggregates: ThresholdAggregates): ThresholdResult {
  const value = aggregateThreshold(parsed, aggregates);
  // No timing and reused answers: any answer asked now would have given one, so every answer was reused.
  // Not measured is not failed: the threshold says so instead of failing on "no data".
  if (value === null && TIMING_THRESHOLDS.has(parsed.metric) && (aggregates.reusedApart ?? 0) > 0) {
    return { metric: parsed.key, expression: parsed.expression, scope: { ...parsed.scope }, value, pass: true, not_judged: EVERY_ANSWER_REUSED };
  }
  return {
    metric: parsed.key,
    expression: parsed.expression,
    scope: { ...parsed.scope },
    value,
    pass: value !== null && compareThreshold(value, parsed.operator, parsed.value),
  };
}

function collect<T>(issues: InputError[], parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    issues.push(error);
    return undefined;
  }
}

/** Parses every expression, collecting every problem instead of stopping at the first. */
export function collectThresholdIssues(thresholds: Record<string, readonly string[]>): { parsed: ParsedThreshold[]; issues: InputError[] } {
  const parsed: ParsedThreshold[] = [];
  const issues: InputError[] = [];
  for (const [key, expressions] of Object.entries(thresholds)) {
    if (!collect(issues, () => parseThresholdKey(key))) continue;
    for (const expression of expressions) {
      const one = collect(issues, () => parseThreshold(key, expression));
      if (one) parsed.push(one);
    }
  }
  return { parsed, issues };
}

/** Checks all thresholds up front (a run must reject them before sending anything). */
export function validateThresholds(thresholds: Record<string, readonly string[]>): ParsedThreshold[] {
  const { parsed, issues } = collectThresholdIssues(thresholds);
  const [first] = issues;
  if (first === undefined) return parsed;
  if (issues.length === 1) throw first;
  throw new InputError(issues.map((issue) => issue.message).join('\n'), { field: 'thresholds' });
}
