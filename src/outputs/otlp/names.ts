// PROVISIONAL: the metric names until the prometheus-rw output's own list lands (then imported from it).
export const METRIC_NAMES = {
  requests: 'kbbench_requests_total',
  starts: 'kbbench_starts_total',
  droppedStarts: 'kbbench_dropped_starts_total',
  inFlight: 'kbbench_in_flight',
  ttfc: 'kbbench_ttfc_seconds',
  latency: 'kbbench_latency_seconds',
  correctedLatency: 'kbbench_corrected_latency_seconds',
  credits: 'kbbench_credits_used_total',
} as const;

/** The `quantile` label's values and the timeline's percentile each one reads. */
export const QUANTILES = [['0.5', 'p50'], ['0.95', 'p95'], ['0.99', 'p99']] as const;
