// The vocabulary of k6-style thresholds: metrics, the aggregations each allows, tags, operators.

export const AGGREGATIONS = ['count', 'rate', 'sum', 'avg', 'min', 'max', 'med', 'p', 'value'] as const;
export type AggregationName = (typeof AGGREGATIONS)[number];

export const OPERATORS = ['<=', '>=', '==', '!=', '<', '>'] as const;
export type ThresholdOperator = (typeof OPERATORS)[number];

const TREND: readonly AggregationName[] = ['count', 'sum', 'avg', 'min', 'max', 'med', 'p'];

/** Which aggregations each metric accepts (k6: trends take statistics, rates take `rate`). */
export const METRIC_AGGREGATIONS = {
  ttfc_ms: TREND,
  latency_ms: TREND,
  ttfb_ms: TREND,
  corrected_latency_ms: TREND,
  pass_rate: ['rate'],
  errors: ['count', 'rate'],
  credits_used: ['sum', 'avg', 'min', 'max', 'med', 'p', 'count'],
  // One number per run: the mean credits of a request. `value` reads as k6's gauge form.
  credits_per_request: ['avg', 'value'],
  // Open loop: planned starts never sent, or sent over 1 s late (count, and rate of the planned starts).
  dropped: ['count', 'rate'],
} as const satisfies Record<string, readonly AggregationName[]>;
export type ThresholdMetric = keyof typeof METRIC_AGGREGATIONS;
export const THRESHOLD_METRICS = Object.keys(METRIC_AGGREGATIONS) as ThresholdMetric[];

/** Tags a threshold may be scoped by, each naming a field of a result line. */
export const THRESHOLD_TAGS = ['model', 'case', 'thread', 'turn', 'endpoint', 'method', 'streaming', 'outcome', 'tag'] as const;
export type ThresholdTag = (typeof THRESHOLD_TAGS)[number];

export function isThresholdMetric(name: string): name is ThresholdMetric {
  return Object.hasOwn(METRIC_AGGREGATIONS, name);
}

export function isThresholdTag(name: string): name is ThresholdTag {
  return (THRESHOLD_TAGS as readonly string[]).includes(name);
}

export function isAggregationName(name: string): name is AggregationName {
  return (AGGREGATIONS as readonly string[]).includes(name);
}

/** How an aggregation is written: `p` shows as `p(N)`. */
export function aggregationLabel(name: AggregationName): string {
  return name === 'p' ? 'p(N)' : name;
}

export function aggregationsOf(metric: ThresholdMetric): readonly AggregationName[] {
  return METRIC_AGGREGATIONS[metric];
}
