// A validated suite, as suite/ produces it and plan/ consumes it. Every element keeps where it
// was written, so later errors (a bad check at run time) can still name the file and line.
import type { OutputSpec } from './output.js';
import type { HttpMethod } from './sample.js';

export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

/** Request options a suite's `defaults`, a case, a turn or a flag may set (snake_case, as on the wire). */
export interface RequestOptions {
  method?: HttpMethod;
  streaming?: boolean;
  plaintext?: boolean;
  include_usage?: boolean;
  additional_context?: string;
  save_history?: boolean;
  user?: string;
  source?: string;
}

export const CHECK_TYPES = [
  'contains',
  'icontains',
  'not-contains',
  'regex',
  'equals',
  'starts-with',
  'max-ttfc-ms',
  'max-latency-ms',
  'max-credits',
  'similar',
  'judge',
  // promptfoo's negations and lists, so its suites read unchanged.
  'not-icontains',
  'not-equals',
  'not-starts-with',
  'not-regex',
  'contains-any',
  'contains-all',
  'icontains-any',
  'icontains-all',
  // promptfoo's model-graded checks (llm-rubric is `judge`'s other name).
  'factuality',
  'answer-relevance',
  'context-faithfulness',
  'context-recall',
  // promptfoo's structure and distance checks on the answer's text.
  'is-json',
  'not-is-json',
  'contains-json',
  'not-contains-json',
  'levenshtein',
  'not-levenshtein',
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export interface SimilarSpec {
  to: string;
  min: number;
}
/** Where a model-graded check's grader is named on the check itself (else the suite's grader). */
export interface GraderOverride {
  chat_id?: string;
  board_id?: string;
  model?: string;
  /** Ask the grader N times and take the majority (odd N). */
  votes?: number;
}
export interface JudgeSpec extends GraderOverride {
  rubric: string;
}
/** factuality and context-recall: a reference answer; answer-relevance and context-faithfulness need none. */
export interface GradedSpec extends GraderOverride {
  reference?: string;
}

/** The model-graded check types: each needs a grader (input error without one). */
export const MODEL_GRADED_TYPES = ['judge', 'factuality', 'answer-relevance', 'context-faithfulness', 'context-recall'] as const;
export type ModelGradedType = (typeof MODEL_GRADED_TYPES)[number];

/** The suite's `grader:` block (or the --grader-* flags): a chat assistant of the service, or an OpenAI-compatible endpoint. */
export type GraderSpec =
  | { kind: 'chat'; chat_id: string; board_id?: string; model?: string; location?: SourceLocation }
  | { kind: 'openai'; base_url: string; model: string; location?: SourceLocation };

/** `levenshtein`: the answer is within `max` edits of `to` (promptfoo's threshold, default 5). */
export interface LevenshteinSpec {
  to: string;
  max: number;
}

/**
 * promptfoo's scoring keys, on any check: `weight` (0 = reported only, never failing the item) and
 * `metric` (a name the check's result is reported under).
 */
export interface CheckScoring {
  weight?: number;
  metric?: string;
}

/** One assertion as written: `{ contains: "30 days" }` → `{ type: 'contains', value: '30 days' }`. */
export type CheckSpec = CheckScoring & (
  | {
      type: 'contains' | 'icontains' | 'not-contains' | 'regex' | 'equals' | 'starts-with' | 'not-icontains' | 'not-equals' | 'not-starts-with' | 'not-regex';
      value: string;
      location?: SourceLocation;
    }
  | { type: 'contains-any' | 'contains-all' | 'icontains-any' | 'icontains-all'; value: string[]; location?: SourceLocation }
  | { type: 'max-ttfc-ms' | 'max-latency-ms' | 'max-credits'; value: number; location?: SourceLocation }
  | { type: 'similar'; value: SimilarSpec; location?: SourceLocation }
  | { type: 'judge'; value: JudgeSpec; location?: SourceLocation }
  | { type: 'factuality' | 'answer-relevance' | 'context-faithfulness' | 'context-recall'; value: GradedSpec; location?: SourceLocation }
  /** No value: any JSON; the value is never a schema (kbbench does not validate JSON Schema; refused when read). */
  | { type: 'is-json' | 'not-is-json' | 'contains-json' | 'not-contains-json'; value?: undefined; location?: SourceLocation }
  | { type: 'levenshtein' | 'not-levenshtein'; value: LevenshteinSpec; location?: SourceLocation }
);

export interface SuiteCase {
  id: string;
  prompt: string;
  /** Restricts this case to these models (CSV `model` column); undefined = the suite's models. */
  models?: string[];
  /** `tags: [billing, security]`: results and summaries are grouped by them. */
  tags?: string[];
  /** `repeat_pass: 2/3`: passes when k of its n repeats pass (non-deterministic models). */
  repeat_pass?: RepeatPass;
  options: RequestOptions;
  assert: CheckSpec[];
  /** `expect_fail: reason` (CSV column `expect_fail`): known to fail; reported as an expected failure (xfail). */
  expect_fail?: string;
  location: SourceLocation;
  /** Share of starts in a weighted traffic mix (--mix weighted), relative to the others (default 1). */
  weight?: number;
  /** What the case is for, as written (promptfoo's `description`); shown by validate. */
  description?: string;
  /** promptfoo's test `threshold`: the item passes when its checks' weighted score reaches it. */
  score_threshold?: number;
}

/**
 * The cases of a suite, read by position or in order. An array is one (YAML suites keep theirs);
 * a large CSV suite gives a list that reads each case from the file's bytes when asked, so a
 * million rows cost their bytes and a small index rather than a million objects. Each read may
 * return a fresh object: treat a case as a value, not an identity.
 */
export interface CaseList extends Iterable<SuiteCase> {
  readonly length: number;
  at(index: number): SuiteCase | undefined;
  /**
   * False when the list knows no case has `models`, so a plan can skip reading every case to find
   * the restricted ones (a million lazy reads). Absent (an array) means unknown: look.
   */
  readonly restrictsModels?: boolean;
}

export interface SuiteTurn {
  turn: number;
  prompt: string;
  options: RequestOptions;
  assert: CheckSpec[];
  location: SourceLocation;
}

export interface SuiteThread {
  id: string;
  name?: string;
  models?: string[];
  /** Every turn of the thread is expected to fail (see SuiteCase.expect_fail). */
  expect_fail?: string;
  tags?: string[];
  repeat_pass?: RepeatPass;
  turns: SuiteTurn[];
  location: SourceLocation;
  /** Pause between this thread's turns (k6's sleep): fixed when min equals max, else drawn in the range. */
  think_time?: ThinkTime;
  /** Share of starts in a weighted traffic mix (--mix weighted), relative to the others (default 1). */
  weight?: number;
}

export interface SuiteTarget {
  board_id?: string;
  chat_id?: string;
}

export interface Suite {
  name: string;
  /** Absolute path of the suite file. */
  path: string;
  sha256: string;
  /** Every file the suite was read from, when more than one (`run a.csv b.yaml`, `- file://…` includes); `path` is the first. */
  files?: string[];
  target: SuiteTarget;
  /** Empty = the service's default model (no `model` parameter sent). */
  models: string[];
  defaults: RequestOptions;
  cases: CaseList;
  threads: SuiteThread[];
  /** metric (optionally tag-scoped, `ttfc_ms{model:gpt-4o}`) → k6-style expressions. */
  thresholds: Record<string, string[]>;
  /** Thresholds written in k6's object form with `abortOnFail`: they stop the run when they fail. */
  threshold_aborts?: ThresholdAbort[];
  /** The embedded service's workspace, relative paths resolved against the suite file. */
  workspace?: string;
  /** Non-fatal findings (an unknown model name). */
  warnings: string[];
  /** Every distinct tag of its cases and threads (a threshold's `{tag:…}` must name one). */
  tags?: string[];
  /** The suite's `repeat_pass: k/n`, for every case and thread that names none. */
  repeat_pass?: RepeatPass;
  /** The suite's `load:` block: the load shape a run uses when no flag gives one. */
  load?: SuiteLoad;
  /** The suite's `grader:` block: who grades its model-graded checks. */
  grader?: GraderSpec;
  /** `grader: { min_kappa, min_labels?, labels }`: model-graded checks gate only where the grader agrees with people's labels (labels: absolute path). */
  grader_calibration?: { min_kappa: number; min_labels?: number; labels: string; location?: SourceLocation };
  /** `knowledge: [docs/*.md]`: the documents context checks are graded against (absolute paths or `*` patterns). */
  knowledge?: { patterns: string[]; location: SourceLocation };
}

/**
 * A suite's `load:` block, in the flags' terms (every load kind: --concurrency, --concurrency-stages,
 * --stages, --rate/--duration, --start-rate, --sweep/--slo, --arrival, --mix, --max-in-flight,
 * --warmup, --degrade-quality); a flag overrides it.
 */
export interface SuiteLoad {
  /** A closed loop's units in flight; a sweep's or an open loop's default bound on in-flight starts. */
  concurrency?: number;
  concurrency_stages?: { durationMs: number; targetPerS: number }[];
  rate?: number;
  duration_ms?: number;
  stages?: { durationMs: number; targetPerS: number }[];
  start_rate?: number;
  /** A sweep of this many rates (each for duration_ms), its `slo` judged per rate: `--sweep N --slo …`. */
  sweep?: number;
  slo?: string[];
  arrival?: 'constant' | 'poisson';
  mix?: 'sequential' | 'shuffle' | 'weighted';
  max_in_flight?: number;
  warmup_ms?: number;
  /** The embedded service: answers that queued for a model slot miss facts. */
  degrade_quality?: boolean;
  /** `outputs: [prometheus-rw=http://…]`: live metrics, as `--output` (which replaces them). */
  outputs?: OutputSpec[];
  /** `traffic: FILE` (absolute: resolved against the suite file): a log replayed as `--traffic` replays it. */
  traffic?: string;
  time_scale?: number;
  traffic_rate?: number;
  loop?: boolean;
  traffic_window_ms?: number;
  location: SourceLocation;
}

/** k of n repeats must pass. */
export interface RepeatPass {
  k: number;
  n: number;
}

/** A threshold that stops the run as soon as it fails (k6's abortOnFail), judged live once `delay_abort_eval_ms` has passed. */
export interface ThresholdAbort {
  key: string;
  expression: string;
  delay_abort_eval_ms: number;
}

/** A think time in ms: `2s` is { min_ms: 2000, max_ms: 2000 }, `1s-3s` a range drawn uniformly. */
export interface ThinkTime {
  min_ms: number;
  max_ms: number;
}
