// summary.json and histograms.json: what a run's statistics look like (CONTRACT.md, "summary.json").
import type { CreditsSummary } from './credits.js';
import type { HarnessSaturation, KneeSummary, StagePercentiles, StageSummary, SweepProbe } from './load.js';
import type { GraderCalibration, RunStatus, ThresholdResult } from './run.js';
import type { OutputReport } from './output.js';

export type Verdict = 'pass' | 'fail' | 'incomplete';

/** The timings kept as HDR histograms, per model and for the whole run. */
export const TIMING_METRICS = ['ttfc_ms', 'latency_ms', 'ttfb_ms', 'gap_max_ms', 'corrected_latency_ms'] as const;
export type TimingMetric = (typeof TIMING_METRICS)[number];

/** Percentiles of one timing, in milliseconds, read from its HDR histogram (3 significant digits). */
export interface TimingPercentiles {
  /** How many values the histogram holds. */
  count: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

/** Statistics of a set of requests: one model's, or the whole run's. */
export interface RequestStats {
  /** Requests sent (a skipped turn is not a request). */
  requests: number;
  ok: number;
  /** Requests that ended in a request error (outcome other than ok). */
  errors: number;
  /** Turns not sent because their conversation could not continue. */
  skipped: number;
  passed: number;
  /** Requests sent that failed (a failed check or a request error); not-judged ones are not counted here. */
  failed: number;
  /** Requests sent whose checks could not all be judged (a grader failed) and none failed: neither passed nor failed. */
  not_judged: number;
  /** passed / (requests − not_judged); null when nothing judged was sent. */
  pass_rate: number | null;
  /** error.code (or the outcome when there is no code) → count. */
  errors_by_kind: Record<string, number>;
  /** Extra attempts spent on retries (sum of attempts − 1). */
  retries: number;
  chars: number;
  /** Characters per second while streaming (first to last chunk), over the streamed answers. */
  chars_per_s: number | null;
  /** Credits spent: answers with known credits plus checks that asked the service (judges). */
  credits_used: number;
  /** The part of credits_used spent by checks. */
  check_credits_used: number;
  /** The answers' own credits (credits_used without the checks'). */
  answer_credits_used: number;
  /** Credits the graders spent (grader chats of the service), apart from the answers'. */
  grader_credits_used: number;
  /** Tokens outside (OpenAI-compatible) graders reported; they spend no service credits. */
  grader_tokens: number;
  /** Answers (outcome ok) whose credits are unknown: a stream without a usage chunk. Failed requests are not counted here. */
  credits_unknown: number;
  /** Failed requests, apart: how many the service may have charged (the answer had begun, or a timeout) and how many it did not (refused before answering). */
  failed_requests_credits: { may_be_charged: number; not_charged: number };
  /** credits_used / requests whose credits are known. */
  credits_per_request: number | null;
  /** credits_used / passed: what one passing answer costs. */
  credits_per_passed: number | null;
  /** The balance the latest result line reported (file order). */
  credits_remaining: number | null;
  /** Timings of the successful answers (outcome ok). */
  ttfc_ms: TimingPercentiles | null;
  latency_ms: TimingPercentiles | null;
  ttfb_ms: TimingPercentiles | null;
  /** Largest gap between two chunks of an answer. */
  gap_max_ms: TimingPercentiles | null;
  /** Open loop only: latency from the intended start. */
  corrected_latency_ms: TimingPercentiles | null;
}

/** A model's pass rate over questions (each question's repeats averaged first, Miller 2024), beside the per-answer one. */
export interface ModelQuestionStats {
  /** Distinct cases and thread turns asked of the model. */
  questions: number;
  /** Judged answers behind the interval (questions × repeats, less the not judged). */
  answers: number;
  /** Mean over questions of each question's pass fraction. */
  pass_at_1: number;
  /** 95% interval of pass_at_1: Wilson at the clustered effective number of questions (threads are clusters). */
  pass_rate_ci95: [number, number];
  /** With repeats: the chance that k tries of a question all pass (k = the fewest repeats a question got). */
  pass_hat_k: { k: number; value: number } | null;
  /** Past 20,000 questions: how many (a random sample of whole threads) the interval is computed on. */
  questions_sampled?: number;
}

export type ModelSummary = RequestStats & Partial<ModelQuestionStats>;

export type PairMetricName = 'pass_rate' | 'ttfc_ms_p50' | 'latency_ms_p50' | 'credits_per_answer';

/** One metric of a pair: b − a over the questions both answered, paired per question. */
export interface PairMetric {
  /** b − a: the mean paired difference (pass rate, credits), the median of the paired differences (times). */
  difference: number;
  /**
   * The interval the verdict is read from: at 1 − 0.05/m for the m pairs of the run (Bonferroni; 95%
   * with two models). It excludes zero exactly when the verdict is a call. Null when no call is reachable.
   */
  ci95: [number, number] | null;
  /** Two-sided, before adjustment. */
  p_value: number;
  /** Bonferroni-adjusted across the run's pairs (one family per metric): below 0.05 exactly when the interval excludes zero. */
  p_adjusted: number | null;
  /** At 5% after adjustment; for latency and credits lower is better. */
  verdict: 'a_better' | 'b_better' | 'no_difference';
  method: 'tango-score' | 'cluster-t' | 'sign-test';
  /** Too few questions (clusters) for any result to reach a call: the smallest adjusted p any data could give, and the clusters needed. */
  unreachable?: { smallest_p: number; clusters_needed: number };
}

export interface ModelPair {
  a: string;
  b: string;
  /** Questions both models answered with a judged answer. */
  questions: number;
  pass_rate: PairMetric | null;
  ttfc_ms_p50: PairMetric | null;
  latency_ms_p50: PairMetric | null;
  credits_per_answer: PairMetric | null;
  /** The smallest pass-rate difference this suite detects with 80% power at 5%. */
  detectable_difference: number | null;
  /** For a given difference: questions needed in all (and more than now), and repeats per question (null: repeats cannot). */
  to_detect: Array<{ difference: number; questions: number; more_questions: number; repeats: number | null }>;
  /** Computed on a random sample of whole threads (a run past 20,000 questions). */
  sampled?: true;
}

/** One tag × model's spend (summary.json `tag_credits`). */
export interface TagModelCredits {
  requests: number;
  passed: number;
  credits_used: number;
  credits_per_request: number | null;
  credits_per_passed: number | null;
}

/** Case × model cells of one class (answered repeats disagreed; or failed to answer): the first 50 in run order, and how many in all. */
export interface FlakyList {
  total: number;
  /** `errors`: requests that ended in an error (429, timeout, a cut stream), when any. */
  shown: Array<{ key: string; label: string; model: string; passed: number; judged: number; errors?: number }>;
}

/** One question × model whose pass rate fell with the offered load: its answers per stage and its test. */
export interface DegradingQuestion {
  key: string;
  label: string;
  model: string;
  /** Answered (judged) repeats per level of offered load with answers (0 = the lowest; stages of equal load are one level). */
  levels: Array<{ level: number; target_rate: number; passed: number; judged: number }>;
  /** One-sided Cochran–Armitage trend p, and Holm-adjusted over every question × model tested. */
  p_value: number;
  p_adjusted: number;
}

/** summary.json's `degrades_under_load`: the questions called, and how. */
export interface DegradesList {
  total: number;
  shown: DegradingQuestion[];
  /** The method in words (the README's statistics section names it too). */
  method: string;
  alpha: number;
  /** Question × model cells tested (answers in two or more stages). */
  tested: number;
  /**
   * Miller (2024): the question is the unit, its repeats averaged. The mean over questions of each
   * question's pass rate in a stage, per model and stage (the questions with answers there).
   */
  pass_rate_by_level: Array<{ model: string; level: number; target_rate: number; questions: number; pass_rate: number }>;
}

/** Who graded the model-graded checks and what grading cost, apart from the answers. */
export interface GraderSummary {
  /** Each grader's label (`chat chatNode-… (gpt-4o-mini)`, `openai http://… llama3`) and its checks. */
  graders: { grader: string; checks: number; not_judged: number; credits_used: number; tokens: number; cached?: number }[];
  credits_used: number;
  tokens: number;
  /** Checks judged from the grader-verdict cache, without a call (absent when none). */
  cached?: number;
}

export interface TotalsSummary extends RequestStats {
  /**
   * Open-loop starts not delivered as planned: never sent (held by the in-flight cap until the
   * schedule ended) plus sent over 1 s after their intended time (`dropped_late`).
   */
  dropped: number;
  /** Of `dropped`, those sent over 1 s late (absent in summaries of older versions). */
  dropped_late?: number;
  /** dropped / the starts the schedule planned; null when nothing was planned (a closed loop). */
  dropped_rate?: number | null;
  /** Requests still in flight when the graceful stop ended, cut and recorded `interrupted` (the service may have charged them). */
  interrupted?: number;
  /** Lines of results.ndjson that could not be read (a torn last line of an interrupted run). */
  unreadable_lines: number;
  /**
   * A run that says it walked its whole plan (a completed closed loop) but whose results lack some
   * of its planned answers (run.json `plan.requests`): a cut results.ndjson. The verdict is then
   * `incomplete`, whatever the gates. Absent when none is missing.
   */
  missing?: number;
  /** The run's duration: run.json's, else from the samples' monotonic offsets. */
  duration_ms: number | null;
  requests_per_s: number | null;
  /** Units started: a case, or a whole thread (its turns follow each other); `--rate` counts these. */
  starts: number;
  starts_per_s: number | null;
  /** Requests sent during --warmup: in results.ndjson (marked), not in these statistics. */
  warmup: number;
  /** Answers taken from earlier runs (--reuse-answers): in requests and pass rates, not in timings or spend (summary `reused`). */
  reused?: number;
  /** Answers within the run's SLOs that passed their checks (summary.json `goodput.definition`); absent in older summaries. */
  good_answers?: number;
  /** Goodput: good_answers per second of the run; null without a duration; absent in older summaries. */
  goodput?: number | null;
  /** --judge-sample: answers whose model-graded checks were left ungraded by the share (counted in not_judged; not gated by `judged`). */
  not_sampled?: number;
}

/** Answers taken from earlier runs (--reuse-answers): not asked now, so apart from this run's timings and spend. */
export interface ReusedSummary {
  answers: number;
  /** The run ids they were asked in. */
  from: string[];
  /** What they cost when they were asked: the credits this run did not spend. */
  credits_saved: number;
  /** Of them, answers whose cost was not reported (not in credits_saved). */
  credits_saved_unknown: number;
  /**
   * Their first chunk and latency when they were asked, set apart from this run's timings; null
   * when none was set apart (a regrade keeps its answers' timings in its own figures).
   */
  ttfc_ms: TimingPercentiles | null;
  latency_ms: TimingPercentiles | null;
}

/** summary.json's `goodput`: what it counts, and the offered load that gave the most of it. */
export interface GoodputSummary {
  /** In words: `answers that passed their checks with ttfc_ms<1500 each`. */
  definition: string;
  /** The SLOs' per-answer bounds it applies (`ttfc_ms<1500`); empty without --slo. */
  slo_bounds: string[];
  /**
   * The knee by goodput (stages or sweep rates): the stage whose goodput was highest, the lowest such
   * when tied; past it more offered load gave fewer good answers. `is_last`: it is the highest load
   * offered, so the knee lies at or above it. Null without stages.
   */
  knee: { stage: number; target_rate: number; achieved_rate: number | null; goodput: number; is_last: boolean } | null;
  /** --judge-sample's share, when the run had one (the definition says it too). */
  judge_sample?: number;
}

/** One case × model (or thread turn × model) cell: how its requests went, over repeats. */
export interface CaseCell {
  requests: number;
  passed: number;
  /** Sent, checks failed (no request error). */
  failed: number;
  errors: number;
  skipped: number;
  credits_used: number;
  latency_ms_sum: number;
  /** `repeat_pass: k/n`: k, the passed repeats the cell needs (absent: every request must pass). */
  repeat_pass?: number;
  /** Requests no check judged (`pass: null`): outside the pass rate. Absent when none. */
  not_judged?: number;
  /** With two or more answered repeats: all passed, some (flaky), or none; `failed_to_answer` when its failures are request errors and its answers agree. */
  stability?: 'stable_pass' | 'flaky' | 'stable_fail' | 'failed_to_answer' | 'degrades_under_load';
}

/** A one-time case, or one turn of a thread, with its cells per model. */
export interface CaseSummary {
  /** `case:<id>` or `thread:<id>#<turn>`. */
  key: string;
  /** `refund-window`, `onboarding turn 2`. */
  label: string;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  models: Record<string, CaseCell>;
}

/** Past the in-memory limit summary.json lists only the worst cases; the file has every row. */
export interface CasesTruncated {
  /** Distinct cases and turns the run had. */
  distinct: number;
  /** How many `cases` lists. */
  kept: number;
  /** The run directory's file holding every case × model row. */
  file: 'cases.csv';
}

/** How far a grader (or a run's checks) agree with people's pass/fail labels. */
export interface AgreementFigures {
  /** Labels both a person and the grader judged. */
  n: number;
  accuracy: number | null;
  /** Cohen's kappa: agreement beyond chance (1 perfect, 0 chance, below 0 worse than chance); null when undefined. */
  kappa: number | null;
  /** Kappa's 95% interval (large-sample standard error), clamped to [-1, 1]; null with kappa. */
  kappa_ci95: [number, number] | null;
  /** Both pass, both fail, grader pass where the person failed it, grader fail where the person passed it. */
  confusion: { both_pass: number; both_fail: number; grader_pass_human_fail: number; grader_fail_human_pass: number };
}

export interface LabelDisagreement {
  item_id: string;
  model: string;
  /** The check type (model-graded), `deterministic` (the string and limit checks together) or `answer` (the item's verdict). */
  group: string;
  check_id: string | null;
  human: 'pass' | 'fail';
  grader: 'pass' | 'fail';
  detail: string;
  note: string;
}

/** summary.json `agreement`: a run's labels.csv against the run's own verdicts. */
export interface PeopleAgreement {
  /** Answers with a person's label found among the run's result lines. */
  labelled_answers: number;
  /** Labels naming an answer the run does not hold. */
  unmatched: number;
  /** Per model-graded check type, `deterministic` and `answer`. */
  groups: Record<string, AgreementFigures>;
  /** The first 200. */
  disagreements: LabelDisagreement[];
}

/** How the verdict was reached: which gates were asked (`--fail-on`) and what each found. */
export interface GatesSummary {
  /** The gates judged (run and report judge `checks` and `thresholds`; the rest are the comparison's). */
  fail_on: string[];
  /** Gates that failed, in fail_on's terms. */
  failed: string[];
  /** The `dropped` gate: the run's dropped starts, and whether a `dropped` threshold judged them instead. */
  dropped?: {
    count: number;
    rate: number | null;
    judged_by_threshold: boolean;
    /** Of `count`, those the gate judged, when not all: a sweep's, in the rates at or below its slo_max_rate. */
    gated?: number;
  };
  checks: {
    /** Failed answers (or requests) outside any pass_rate threshold and not expected to fail. */
    failed: number;
    /** Failed answers inside a pass_rate threshold's scope, judged through it. */
    covered: number;
    /** Failures of cases/threads marked `expect_fail` (xfail). */
    expected_failures: number;
    /** Passes of cases/threads marked `expect_fail` (xpass): reported, not a failure. */
    unexpected_passes: number;
    /** Failed answers or requests the verdict does not gate (a sweep's rates above slo_max_rate): reported, not failed. */
    not_gated?: number;
  };
  /** A sweep with SLOs where no rate met them all: the verdict fails for that (gate `thresholds`). */
  no_slo_rate?: true;
  /** Thresholds that failed. */
  thresholds_failed: number;
  /** Gates that did not hold for want of a judgement (`judged`): the verdict is incomplete. Absent in older summaries. */
  incomplete?: string[];
}

/** One failed item, as the console lists it after its table. */
export interface FailedItem {
  item_id: string;
  model: string;
  /** The first failing check's type and detail, or the request's error. */
  detail: string;
}

/** The first failed items in run order (at most 10) and how many failed in all. */
export interface FailedItems {
  total: number;
  shown: FailedItem[];
}

export interface Summary {
  run_id: string;
  status: RunStatus;
  /** `incomplete` for any run that did not finish (metrics/gates.ts `verdictFor`). */
  verdict: Verdict;
  gates: GatesSummary;
  totals: TotalsSummary;
  models: Record<string, ModelSummary>;
  /**
   * Ordered as the run started them: cases, then each thread's turns in order. Every case up to
   * 10,000 distinct ones; past that the 1,000 worst, and `cases_truncated` says so.
   */
  cases: CaseSummary[];
  /** null when `cases` lists every case. */
  cases_truncated: CasesTruncated | null;
  thresholds: ThresholdResult[];
  /** Spend per model and turn position, per passed answer, the balance and the ledger's reconciliation (computed by credits/run-credits.ts; shapes in credits.ts). */
  credits?: CreditsSummary;
  /** --reuse-answers: the answers taken from earlier runs, with their recorded timings and the credits they saved. */
  reused?: ReusedSummary;
  /** Open loop: per stage of the load profile (from timeline.ndjson, else rebuilt from results). */
  stages?: StageSummary[];
  /** Open loop with a ramp: the lowest achieved rate at which latency, errors or pass rate turned; null when none did. */
  knee?: KneeSummary | null;
  /** Whether the harness itself was the limit (from the timeline). */
  harness?: HarnessSaturation;
  /**
   * --judge-sample P: model-graded checks were graded on a seeded share of the answers; the others are
   * not judged (out of pass rates, never good answers). Every figure of answer quality is over the share.
   */
  judge_sample?: { share: number; not_sampled: number };
  /** Goodput's definition and its knee (totals.goodput, stages[].goodput and sweep rates carry the figures). */
  goodput?: GoodputSummary;
  /** `--sweep N`: the probes, each rate's figures (the stage table's) and SLO verdict, and slo_max_rate. */
  sweep?: SweepSummary;
  /**
   * Per suite tag (`tags: [billing]` on cases and threads): the same statistics as a model's, so
   * pass rate, latency and credits per tag. Absent when no result has a tag. At most 200 tags.
   */
  tags?: Record<string, RequestStats>;
  /** The first failed items and their count; absent in summaries written before it existed. */
  failures?: FailedItems;
  /** Per tag, per model: what the tag's questions cost each model (the `tags` figures mix models). */
  tag_credits?: Record<string, Record<string, TagModelCredits>>;
  /** Each pair of models (in report order, a before b), compared per question; absent with one model. */
  model_pairs?: ModelPair[];
  /** With repeats: flaky case × model cells (answered repeats disagreed). */
  flaky?: FlakyList;
  /** Case × model cells whose failures are request errors (429, timeout, a cut stream), not a wavering answer. */
  failed_to_answer?: FlakyList;
  /** Case × model cells whose pass rate falls as the offered load rises (stages or sweep rates; metrics/load-trend.ts). */
  degrades_under_load?: DegradesList;
  /** Model-graded checks: who graded, and what it cost apart from the answers (absent when none ran). */
  grading?: GraderSummary;
  /** People's labels (labels.csv) against the run's verdicts; absent without labels. Labelled answers' `pass` is the person's. */
  agreement?: PeopleAgreement;
  /** A suite's `grader: { min_kappa, labels }`: per model-graded check type, whether it gated and why. */
  grader_calibration?: GraderCalibration;
  /** `--output`: what each live-metrics output sent and dropped (run.json's; absent without outputs). */
  outputs?: OutputReport[];
}

/** histograms.json: model → metric → hdr-histogram-js compressed base64 (µs values). */
export type HistogramFile = Record<string, Partial<Record<TimingMetric, string>>>;

/** One rate of a sweep in summary.json: the stage table's figures, and its SLO verdict. */
export interface SweepRateSummary {
  index: number;
  target_rate: number;
  achieved_rate: number | null;
  starts: number;
  /** Starts never sent (held past the cap over 1 s, or still held when the rate ended). */
  dropped: number;
  /** Starts of this rate sent over 1 s after their intended time (dropped too, in totals.dropped); absent in older summaries. */
  dropped_late?: number;
  requests: number;
  ttfc_ms: StagePercentiles | null;
  /** Inter-chunk latency (GuideLLM's ITL) of the rate's answers; absent in older summaries. */
  inter_chunk_ms?: StagePercentiles | null;
  /** The rate's output throughput, answer characters per second (its stage's); absent in older summaries. */
  output_chars_per_s?: number | null;
  latency_ms: StagePercentiles | null;
  corrected_latency_ms: StagePercentiles | null;
  error_rate: number | null;
  pass_rate: number | null;
  /** Answers per second and good answers per second (summary.json `goodput`), its stage's; absent in older summaries. */
  throughput?: number | null;
  goodput?: number | null;
  /** Every SLO met (and something was answered); null when no SLO was given. */
  slo_pass: boolean | null;
  /** The SLOs this rate missed, as `metric=expression`. */
  slo_failed: string[];
}

/** summary.json's `sweep`. */
export interface SweepSummary {
  probes: { sequential_rate: number; saturation_rate: number; sequential: SweepProbe; saturation: SweepProbe };
  rate_ms: number;
  rates: SweepRateSummary[];
  /** The SLOs, as `metric=expression`, and each rate's results (per rate, in `rates` order). */
  slo: string[];
  slo_results: ThresholdResult[][];
  /** The highest achieved rate that met every SLO; null when none did or no SLO was given. */
  slo_max_rate: number | null;
  /** That rate's target. */
  slo_max_target_rate: number | null;
  /** True when every rate met every SLO: slo_max_rate is a lower bound, the service's limit lies higher. */
  slo_max_rate_is_lower_bound?: boolean;
  /**
   * Starts dropped (never sent, or sent over 1 s late) in the rates at or below slo_max_rate's: the
   * ones the default `dropped` gate judges on a sweep (0 when it names no rate). Absent in older summaries.
   */
  dropped_gated?: number;
}
