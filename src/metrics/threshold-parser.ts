// Parses k6-style thresholds: a key `metric{tag:value,…}` and expressions `aggregation op value`.
import { InputError } from '../domain/errors.js';
import {
  OPERATORS,
  THRESHOLD_METRICS,
  THRESHOLD_TAGS,
  aggregationLabel,
  aggregationsOf,
  isAggregationName,
  isThresholdMetric,
  isThresholdTag,
  type AggregationName,
  type ThresholdMetric,
  type ThresholdOperator,
} from './threshold-grammar.js';

export interface ThresholdAggregation {
  name: AggregationName;
  /** Only for `p(N)`: the percentile, in (0, 100]. */
  p?: number;
}

export interface ParsedThresholdKey {
  /** The key as written, trimmed: `ttfc_ms{model:gpt-4o}`. */
  key: string;
  metric: ThresholdMetric;
  /** Tag scope in the order written; empty = every sample. */
  scope: Record<string, string>;
}

export interface ParsedThresholdExpression {
  /** The expression as written, trimmed: `p(95)<2000`. */
  expression: string;
  aggregation: ThresholdAggregation;
  operator: ThresholdOperator;
  value: number;
}

export interface ParsedThreshold extends ParsedThresholdKey, ParsedThresholdExpression {}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const OPERATOR_LIST = OPERATORS.join(', ');

function fail(key: string, expression: string | undefined, problem: string): never {
  const subject = expression === undefined ? `threshold "${key}"` : `threshold "${key}: ${expression}"`;
  throw new InputError(`${subject}: ${problem}`, { field: `thresholds.${key}` });
}

export function parseThresholdKey(rawKey: string): ParsedThresholdKey {
  const key = rawKey.trim();
  const match = /^([A-Za-z_]\w*)\s*([\s\S]*)$/.exec(key);
  if (!match) fail(key, undefined, 'expected a metric name such as ttfc_ms, optionally with {tag:value}');
  const metric = match[1] ?? '';
  if (!isThresholdMetric(metric)) {
    fail(key, undefined, `unknown metric "${metric}" (metrics: ${THRESHOLD_METRICS.join(', ')})`);
  }
  const rest = match[2] ?? '';
  return { key, metric, scope: rest === '' ? {} : parseScope(key, rest) };
}

function parseScope(key: string, text: string): Record<string, string> {
  const braces = /^\{([^{}]*)\}$/.exec(text);
  if (!braces) fail(key, undefined, `bad tag syntax "${text}": write {name:value} or {name:value,name:value}`);
  const scope: Record<string, string> = {};
  for (const part of (braces[1] ?? '').split(',')) {
    const colon = part.indexOf(':');
    if (colon < 0) fail(key, undefined, `bad tag syntax "${part.trim()}": write name:value`);
    const name = part.slice(0, colon).trim();
    const value = part.slice(colon + 1).trim();
    if (!isThresholdTag(name)) fail(key, undefined, `unknown tag "${name}" (tags: ${THRESHOLD_TAGS.join(', ')})`);
    if (value === '') fail(key, undefined, `tag "${name}" has an empty value`);
    if (Object.hasOwn(scope, name)) fail(key, undefined, `tag "${name}" is given twice`);
    scope[name] = value;
  }
  return scope;
}

/** Parses `p(95) < 2000` for a metric, checking the aggregation suits it. */
export function parseThresholdExpression(metric: ThresholdMetric, rawExpression: string, key: string = metric): ParsedThresholdExpression {
  const expression = rawExpression.trim();
  if (expression === '') fail(key, expression, 'the expression is empty; write aggregation operator value, e.g. p(95)<2000');
  const { aggregation, rest } = readAggregation(key, expression);
  if (!aggregationsOf(metric).includes(aggregation.name)) {
    const valid = aggregationsOf(metric).map(aggregationLabel).join(', ');
    fail(key, expression, `aggregation "${aggregationLabel(aggregation.name)}" is not valid for ${metric} (valid: ${valid})`);
  }
  const { operator, value } = readComparison(key, expression, rest);
  return { expression, aggregation, operator, value };
}

function readAggregation(key: string, expression: string): { aggregation: ThresholdAggregation; rest: string } {
  const name = /^[A-Za-z_]+/.exec(expression)?.[0];
  if (name === undefined) {
    fail(key, expression, 'expected an aggregation (count, rate, sum, avg, min, max, med, p(N), value) at the start');
  }
  if (!isAggregationName(name)) {
    fail(key, expression, `unknown aggregation "${name}" (known: count, rate, sum, avg, min, max, med, p(N), value)`);
  }
  const after = expression.slice(name.length).trimStart();
  if (name !== 'p') return { aggregation: { name }, rest: after };
  const paren = /^\(([^()]*)\)/.exec(after);
  if (!paren) fail(key, expression, 'p needs a percentile in parentheses, e.g. p(95) or p(99.9)');
  const inner = (paren[1] ?? '').trim();
  if (!NUMBER.test(inner)) fail(key, expression, `percentile "${inner}" in p(${inner}) is not a number`);
  const p = Number(inner);
  if (!(p > 0 && p <= 100)) fail(key, expression, `percentile p(${inner}) is out of range: N must be in (0, 100]`);
  return { aggregation: { name, p }, rest: after.slice(paren[0].length).trimStart() };
}

function readComparison(key: string, expression: string, rest: string): { operator: ThresholdOperator; value: number } {
  const operator = OPERATORS.find((op) => rest.startsWith(op));
  if (operator === undefined) {
    const head = expression.slice(0, expression.length - rest.length).trim();
    const hint = rest.startsWith('=') ? '; "=" alone is not an operator, use "=="' : '';
    const found = rest === '' ? 'nothing' : `"${rest}"`;
    fail(key, expression, `missing operator after "${head}" (use ${OPERATOR_LIST}); found ${found}${hint}`);
  }
  const valueText = rest.slice(operator.length).trim();
  if (valueText === '') fail(key, expression, `missing value after "${operator}"`);
  if (!NUMBER.test(valueText)) fail(key, expression, `value "${valueText}" is not a number${unitHint(valueText)}`);
  const value = Number(valueText);
  if (!Number.isFinite(value)) fail(key, expression, `value "${valueText}" is too large`);
  // -0 and 0 compare equal; keeping one spelling makes the parse round-trip exactly.
  return { operator, value: value === 0 ? 0 : value };
}

/** `95%` and `100ms` are the commonest slips: say what to write instead. */
function unitHint(valueText: string): string {
  const unit = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(%|ms|s)$/.exec(valueText);
  if (!unit) return '';
  const n = Number(unit[1]);
  if (unit[2] === '%') return ` (a rate is a fraction: write ${n / 100})`;
  return ` (times are milliseconds, written without a unit: write ${unit[2] === 's' ? n * 1000 : n})`;
}

export function parseThreshold(key: string, expression: string): ParsedThreshold {
  const parsedKey = parseThresholdKey(key);
  return { ...parsedKey, ...parseThresholdExpression(parsedKey.metric, expression, parsedKey.key) };
}

/** `--threshold 'ttfc_ms{model:gpt-4o}=p(95)<2000'` → key and expression, both validated. */
export function parseThresholdFlag(flag: string): { key: string; expression: string } {
  const match = /^\s*([A-Za-z_]\w*\s*(?:\{[^{}]*\})?)\s*=(?!=)([\s\S]*)$/.exec(flag);
  if (!match) {
    throw new InputError(`--threshold "${flag}": expected METRIC=EXPRESSION, e.g. ttfc_ms=p(95)<2000`, { field: '--threshold' });
  }
  const parsed = parseThreshold(match[1] ?? '', match[2] ?? '');
  return { key: parsed.key, expression: parsed.expression };
}

export function formatAggregation(aggregation: ThresholdAggregation): string {
  return aggregation.name === 'p' ? `p(${aggregation.p})` : aggregation.name;
}

/** The canonical spelling of a parsed threshold: parsing it again gives the same result. */
export function formatThreshold(parsed: ParsedThresholdKey & Omit<ParsedThresholdExpression, 'expression'>): { key: string; expression: string } {
  const tags = Object.entries(parsed.scope).map(([name, value]) => `${name}:${value}`);
  const key = tags.length === 0 ? parsed.metric : `${parsed.metric}{${tags.join(',')}}`;
  return { key, expression: `${formatAggregation(parsed.aggregation)}${parsed.operator}${parsed.value}` };
}
