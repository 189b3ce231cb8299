// history.json's shape (a script reads these names) and the compact record of one run it is built from.

/** The metrics a history follows, named as in summary.json; `credits_per_answer` is credits over answers received. */
export const HISTORY_METRICS = ['pass_rate', 'ttfc_ms_p50', 'ttfc_ms_p95', 'latency_ms_p50', 'latency_ms_p95', 'credits_per_answer', 'errors'] as const;
export type HistoryMetric = (typeof HISTORY_METRICS)[number];

export const METRIC_TITLES: Record<HistoryMetric, string> = {
  pass_rate: 'Pass rate',
  ttfc_ms_p50: 'Time to first chunk p50 (ms)',
  ttfc_ms_p95: 'Time to first chunk p95 (ms)',
  latency_ms_p50: 'Latency p50 (ms)',
  latency_ms_p95: 'Latency p95 (ms)',
  credits_per_answer: 'Credits per answer',
  errors: 'Errors (requests)',
};

export type MetricValues = Partial<Record<HistoryMetric, number | null>>;

/** One model's (or tag's) figures in one run. */
export interface RunGroup {
  values: MetricValues;
  /** The pass rate's 95% interval: summary.json's `pass_rate_ci95`, else Wilson over the questions. */
  ci95?: [number, number];
}

/** Per model, each question's passed and sent requests, questions interned to numbers per history. */
export interface QuestionOutcomes {
  question: Int32Array;
  passed: Float32Array;
  requests: Float32Array;
  /** Passed requests each question needs to count as passed in the run. */
  need: Float32Array;
  /** Questions that summary.json's `cases[].stability` calls flaky in this run (repeats). */
  flakyWithin?: Int32Array;
}

export interface KnowledgeBase {
  version?: string;
  sha256?: string;
}

export interface RunRecord {
  /** The run directory, absolute. */
  dir: string;
  runId: string;
  suite: string;
  startedAt: string;
  startedMs: number;
  label?: string;
  commit?: string;
  status: string;
  verdict: string;
  knowledgeBase?: KnowledgeBase;
  hasReport: boolean;
  models: Map<string, RunGroup>;
  tags: Map<string, RunGroup>;
  /** Per model; absent when the run's per-question figures could not be read. */
  questions: Map<string, QuestionOutcomes>;
  /** People's labels of the run's answers (labels.csv), by item_id: true right, false wrong. */
  labels: Map<string, boolean>;
}

export interface HistoryPoint {
  run_id: string;
  started_at: string;
  label?: string;
  commit?: string;
  value: number | null;
  ci95?: [number, number];
  /** report.html of the run, relative to history.html, when it sits beside the run's files. */
  report?: string;
}

export interface HistorySeries {
  suite: string;
  /** The model; `*` for a tag's series (all models together). */
  model: string;
  tag?: string;
  metric: HistoryMetric;
  points: HistoryPoint[];
}

export interface HistoryChangePoint {
  suite: string;
  model: string;
  tag?: string;
  metric: HistoryMetric;
  /** The first run after the change. */
  run_id: string;
  started_at: string;
  label?: string;
  commit?: string;
  /** The last run before it. */
  previous_run_id: string;
  previous_label?: string;
  previous_commit?: string;
  /** Mean of the metric over the segment before and after (up to the neighbouring change points). */
  before: number;
  after: number;
  p_value: number;
}

export interface HistoryFlip {
  suite: string;
  model: string;
  item: string;
  /** The runs in which the question's outcome changed, with its new outcome. */
  runs: Array<{ run_id: string; passed: boolean }>;
  /** `flaky`: it flipped back and forth (or a run's repeats disagreed); else one change, either way. */
  kind: 'flaky' | 'regressed' | 'fixed';
}

export interface HistoryRun {
  run_id: string;
  suite: string;
  started_at: string;
  label?: string;
  commit?: string;
  status: string;
  verdict: string;
  knowledge_base?: KnowledgeBase;
  report?: string;
}

export interface HistoryJson {
  generated_by: { name: 'kbbench'; version: string };
  method: { change_points: string; significance: number; permutations: number; min_segment: number; seed: number };
  runs: HistoryRun[];
  series: HistorySeries[];
  change_points: HistoryChangePoint[];
  flips: HistoryFlip[];
  /** Items of `flips` that are flaky, by suite, model and item. */
  flaky: Array<{ suite: string; model: string; item: string; flips: number }>;
  /** An answer a person labelled differently from the previous run that labelled it (labels.csv); absent when none. */
  label_changes?: Array<{ suite: string; item_id: string; run_id: string; from: 'pass' | 'fail'; to: 'pass' | 'fail' }>;
  /** Directories that held a run.json but could not be read, and why. */
  skipped: Array<{ dir: string; reason: string }>;
}
