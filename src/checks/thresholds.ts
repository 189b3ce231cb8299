// Evaluates k6-style thresholds exactly over a run's samples; validates them before a run starts.
import { InputError } from '../domain/errors.js';
import type { ThresholdResult } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { nearestRank, sortedCopy, sum } from './percentile.js';
import { parseThreshold, parseThresholdKey, type ParsedThreshold } from './threshold-parser.js';
import type { ThresholdMetric, ThresholdOperator, ThresholdTag } from './threshold-grammar.js';

/** The fields of a result line thresholds read; a whole Sample fits. */
export type ThresholdSample = Pick<
  Sample,
  'model' | 'case_id' | 'thread_id' | 'turn' | 'endpoint' | 'method' | 'streaming' | 'outcome' | 'pass' | 'ttfc_ms' | 'ttfb_ms' | 'latency_ms' | 'credits_used'
> &
  Partial<Pick<Sample, 'corrected_latency_ms'>>;

const TAG_VALUE: Record<ThresholdTag, (s: ThresholdSample) => string | null> = {
  model: (s) => s.model,
  case: (s) => s.case_id,
  thread: (s) => s.thread_id,
  turn: (s) => (s.turn === null ? null : String(s.turn)),
  endpoint: (s) => s.endpoint,
  method: (s) => s.method,
  streaming: (s) => String(s.streaming),
  outcome: (s) => s.outcome,
};

/**
 * Which samples a scope selects. Unless the scope names them, `create` lines (no answer, no
 * content) and `skipped` lines (never sent) are left out: they are not answers to measure.
 */
export function matchesScope(sample: ThresholdSample, scope: Record<string, string>): boolean {
  if (scope.endpoint === undefined && sample.endpoint === 'create') return false;
  if (scope.outcome === undefined && sample.outcome === 'skipped') return false;
  return Object.entries(scope).every(([tag, value]) => TAG_VALUE[tag as ThresholdTag](sample) === value);
}

type NumericMetric = Exclude<ThresholdMetric, 'pass_rate' | 'errors'>;

const FIELD: Record<NumericMetric, (s: ThresholdSample) => number | null | undefined> = {
  ttfc_ms: (s) => s.ttfc_ms,
  latency_ms: (s) => s.latency_ms,
  ttfb_ms: (s) => s.ttfb_ms,
  corrected_latency_ms: (s) => s.corrected_latency_ms,
  // Answer credits only: a judge's credits are in its CheckResult, priced by another model.
  credits_used: (s) => s.credits_used,
  credits_per_request: (s) => s.credits_used,
};

function numbersOf(metric: NumericMetric, samples: readonly ThresholdSample[]): number[] {
  const pick = FIELD[metric];
  const values: number[] = [];
  for (const sample of samples) {
    const value = pick(sample);
    if (typeof value === 'number' && Number.isFinite(value)) values.push(value);
  }
  return values;
}

function rateOf(metric: ThresholdMetric, samples: readonly ThresholdSample[]): number | null {
  if (samples.length === 0) return null;
  const hits = samples.filter((s) => (metric === 'pass_rate' ? s.pass : s.outcome !== 'ok')).length;
  return hits / samples.length;
}

/**
 * The aggregated value, or null when there is nothing to aggregate. Only `count` is a number on
 * empty data (0 requests, 0 errors is a fact); a rate, mean or percentile of nothing is
 * undefined, and a scope that matches no sample is more often a typo than a success, so those
 * fail rather than pass vacuously.
 */
export function aggregateThreshold(parsed: ParsedThreshold, samples: readonly ThresholdSample[]): number | null {
  const { metric, aggregation } = parsed;
  if (metric === 'pass_rate' || (metric === 'errors' && aggregation.name === 'rate')) return rateOf(metric, samples);
  if (metric === 'errors') return samples.filter((s) => s.outcome !== 'ok').length;
  const values = numbersOf(metric, samples);
  if (aggregation.name === 'count') return values.length;
  if (values.length === 0) return null;
  switch (aggregation.name) {
    case 'sum':
      return sum(values);
    case 'avg':
    case 'value':
      return sum(values) / values.length;
    case 'min':
      return nearestRank(sortedCopy(values), 0);
    case 'max':
      return nearestRank(sortedCopy(values), 100);
    case 'med':
      return nearestRank(sortedCopy(values), 50);
    case 'p':
      return nearestRank(sortedCopy(values), aggregation.p ?? 100);
    case 'rate':
      return null;
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

export function evaluateThresholds(thresholds: Record<string, readonly string[]>, samples: Iterable<ThresholdSample>): ThresholdResult[] {
  const all = Array.from(samples);
  const scoped = new Map<string, ThresholdSample[]>();
  return validateThresholds(thresholds).map((parsed) => {
    let selected = scoped.get(parsed.key);
    if (selected === undefined) {
      selected = all.filter((sample) => matchesScope(sample, parsed.scope));
      scoped.set(parsed.key, selected);
    }
    const value = aggregateThreshold(parsed, selected);
    return {
      metric: parsed.key,
      expression: parsed.expression,
      scope: { ...parsed.scope },
      value,
      pass: value !== null && compareThreshold(value, parsed.operator, parsed.value),
    };
  });
}
