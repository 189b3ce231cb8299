// Evaluates k6-style thresholds exactly over a run's samples; validates them before a run starts.
import { InputError } from '../domain/errors.js';
import type { ThresholdResult } from '../domain/run.js';
import type { CheckResult, Sample } from '../domain/sample.js';
import { fromUnits, toUnits } from '../credits/ledger.js';
import { nearestRank, sortedCopy, sum } from './percentile.js';
import { parseThreshold, parseThresholdKey, type ParsedThreshold } from './threshold-parser.js';
import type { ThresholdMetric, ThresholdOperator, ThresholdTag } from './threshold-grammar.js';

/**
 * The fields of a result line thresholds read; a whole Sample fits. `check_credits_used` is what the
 * request's checks (judges) spent: without it (or `checks`) only the answer's credits count.
 */
export type ThresholdSample = Pick<
  Sample,
  'model' | 'case_id' | 'thread_id' | 'turn' | 'endpoint' | 'method' | 'streaming' | 'outcome' | 'pass' | 'ttfc_ms' | 'ttfb_ms' | 'latency_ms' | 'credits_used'
> &
  Partial<Pick<Sample, 'corrected_latency_ms' | 'checks'>> & { check_credits_used?: number };

function checkCreditUnits(checks: readonly CheckResult[]): number {
  let units = 0;
  for (const check of checks) units += toUnits(check.credits_used ?? 0);
  return units;
}

/** The compact form of a result line (no texts), for holding a large run's samples in memory. */
export function thresholdSampleOf(s: Sample): ThresholdSample {
  return {
    model: s.model, case_id: s.case_id, thread_id: s.thread_id, turn: s.turn, endpoint: s.endpoint, method: s.method,
    streaming: s.streaming, outcome: s.outcome, pass: s.pass, ttfc_ms: s.ttfc_ms, ttfb_ms: s.ttfb_ms, latency_ms: s.latency_ms,
    credits_used: s.credits_used, check_credits_used: fromUnits(checkCreditUnits(s.checks)),
    ...(s.corrected_latency_ms !== undefined ? { corrected_latency_ms: s.corrected_latency_ms } : {}),
  };
}

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
 * Which samples a scope selects: the requests summary.json counts. A `skipped` turn was never sent,
 * so it is left out unless the scope names an outcome. A failed `create` line was sent and failed:
 * summary.json counts it as a request and an error, and so do pass_rate and errors here.
 */
export function matchesScope(sample: ThresholdSample, scope: Record<string, string>): boolean {
  if (scope.outcome === undefined && sample.outcome === 'skipped') return false;
  return Object.entries(scope).every(([tag, value]) => TAG_VALUE[tag as ThresholdTag](sample) === value);
}

type TimingMetric = 'ttfc_ms' | 'latency_ms' | 'ttfb_ms' | 'corrected_latency_ms';

const TIMING: Record<TimingMetric, (s: ThresholdSample) => number | null | undefined> = {
  ttfc_ms: (s) => s.ttfc_ms,
  latency_ms: (s) => s.latency_ms,
  ttfb_ms: (s) => s.ttfb_ms,
  corrected_latency_ms: (s) => s.corrected_latency_ms,
};

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Timings of answers (outcome ok), as summary.json's percentiles: a stream cut midway or a timeout
 * is another population (a cut answer is short, not fast). A scope naming an outcome decides itself.
 */
function timingsOf(metric: TimingMetric, samples: readonly ThresholdSample[], scope: Record<string, string>): number[] {
  const pick = TIMING[metric];
  const values: number[] = [];
  for (const sample of samples) {
    const value = pick(sample);
    if (finite(value) && (scope.outcome !== undefined || sample.outcome === 'ok')) values.push(value);
  }
  return values;
}

/** What a request's checks spent, in 1e-5 units: the explicit field, else read from its checks. */
function checkUnitsOf(sample: ThresholdSample): number {
  if (sample.check_credits_used !== undefined) return toUnits(sample.check_credits_used);
  return sample.checks ? checkCreditUnits(sample.checks) : 0;
}

/**
 * Per request, in 1e-5 units: the answer's credits plus its checks' (judges), as summary.json's
 * credits_used counts them; null when nothing is known. Units, so a sum of 100,000 stays exact.
 */
function creditUnitsOf(samples: readonly ThresholdSample[]): { units: number[]; known: number } {
  const units: number[] = [];
  let known = 0;
  for (const sample of samples) {
    const checks = checkUnitsOf(sample);
    if (finite(sample.credits_used)) known++;
    if (finite(sample.credits_used) || checks > 0) units.push(toUnits(sample.credits_used ?? 0) + checks);
  }
  return { units, known };
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
  if (metric === 'credits_used' || metric === 'credits_per_request') return aggregateCredits(parsed, samples);
  return aggregateValues(parsed, timingsOf(metric, samples, parsed.scope));
}

/** credits_per_request is summary.json's: everything spent over the requests whose credits are known. */
function aggregateCredits(parsed: ParsedThreshold, samples: readonly ThresholdSample[]): number | null {
  const { units, known } = creditUnitsOf(samples);
  if (parsed.metric === 'credits_per_request') return known > 0 ? fromUnits(sum(units)) / known : null;
  if (parsed.aggregation.name === 'sum') return units.length > 0 ? fromUnits(sum(units)) : null;
  return aggregateValues(parsed, units.map(fromUnits));
}

function aggregateValues({ aggregation }: ParsedThreshold, values: number[]): number | null {
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
