// A Sample is one finished request: one line of results.ndjson (CONTRACT.md, "A result line").
import type { KbErrorCode } from './errors.js';

export type Endpoint = 'ask' | 'continue' | 'create';
export type HttpMethod = 'post' | 'get';
/** `interrupted`: still in flight when the graceful stop ended, cut by the harness (the service may have charged it). */
export type Outcome = 'ok' | 'http_error' | 'timeout' | 'network_error' | 'stream_error' | 'skipped' | 'interrupted';

/**
 * One check's result. `pass` is three-state: true, false, or null when the check could not be
 * judged (its grader failed, timed out or answered twice in a form that does not parse); then
 * `not_judged` says why. Only checks/ decides which (checks/outcome.ts).
 */
export interface CheckResult {
  type: string;
  pass: boolean | null;
  detail: string;
  /** Why the check was not judged (pass is null). */
  not_judged?: string;
  /** Credits a check spent (a grader chat of the service); counted in the run. */
  credits_used?: number;
  /** Model-graded checks: which grader (`chat <id> (<model>)`, `openai <url> <model>`). */
  grader?: string;
  /** Tokens an outside (OpenAI-compatible) grader reported; it spends no service credits. */
  grader_tokens?: number;
  /** The grader's score in [0, 1] when it gave one (the majority's mean with votes). */
  score?: number;
  /** The grader's replies, as received (each cut at 2,000 characters). */
  grader_replies?: string[];
  /** Model-graded checks: the verdict came from the grader-verdict cache (graders/verdict-cache.ts), no grader was asked. */
  cached?: boolean;
  /** Reports only: the grader of this check type has not earned its gate (too few labels, kappa below the bar): why. */
  not_gating?: string;
  /** promptfoo's `weight`, as the suite wrote it (absent = 1; 0 = reported, never failing the item). */
  weight?: number;
  /** promptfoo's `metric`: the name this check is reported under. */
  metric?: string;
}

export interface SampleError {
  code: KbErrorCode | 'E_SKIPPED' | 'E_INTERRUPTED';
  message: string;
}

export interface Sample {
  item_id: string;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  model: string;
  repeat: number;
  endpoint: Endpoint;
  method: HttpMethod;
  streaming: boolean;
  conversation_id: string | null;
  started_at: string;
  /** Monotonic ms since the run started: orders samples in time without wall-clock jumps. */
  offset_ms: number;
  status: number | null;
  outcome: Outcome;
  error: SampleError | null;
  attempts: number;
  ttfb_ms: number | null;
  ttfc_ms: number | null;
  last_chunk_ms: number | null;
  finish_ms: number | null;
  usage_ms: number | null;
  latency_ms: number | null;
  chunks: number;
  chars: number;
  gap_mean_ms: number | null;
  gap_max_ms: number | null;
  text: string;
  credits_used: number | null;
  credits_remaining: number | null;
  /** True when a stream carried no usage chunk: the credits of this answer are unknown. */
  credits_unknown: boolean;
  /** The service reported a credit value that is not one (negative, NaN, 1e308, null): what it said. */
  credits_invalid?: string;
  /** `repeat_pass: k/n` of its case or thread: k (absent when every repeat must pass). */
  repeat_pass?: number;
  /** The case's or thread's tags (absent when it has none). */
  tags?: string[];
  checks: CheckResult[];
  /** False when a check failed, or when one could not be judged (then `not_judged` says why). */
  pass: boolean;
  /** No check failed but one could not be judged: the item is neither passed nor failed. */
  not_judged?: string;
  /** The checks' weighted score in [0, 1] (promptfoo's), when a check has a weight or the case a score threshold. */
  score?: number;
  /** Open loop only: how late the request was sent after its intended start. */
  scheduled_delay_ms?: number;
  /** Open loop only: latency measured from the intended start (coordinated omission corrected). */
  corrected_latency_ms?: number;
  stream_dialect?: string;
  /** Sent during --warmup: recorded, left out of statistics and thresholds. */
  warmup?: true;
  /** The prompt sent, so reports rebuilt from results.ndjson alone can show it beside the answers. */
  prompt?: string;
  /**
   * The content key of the question asked (store/answer-key.ts: model sent, prompt, additional
   * context, plaintext, a thread's earlier turns): what tells a regrade or a reuse whether this
   * answer still answers a suite's request. Absent on `create` lines and in older runs.
   */
  question_key?: string;
  /** The run (its run_id) this answer was recorded in, when this run did not ask for it (a regrade judges a source run's answers again). */
  reused_from?: string;
  /** A reused answer (--reuse-answers): what it cost when it was asked (null: unknown); this run spent nothing on it (`credits_used` 0). */
  credits_saved?: number | null;
  /** A reused answer: its first chunk and latency when it was asked, kept out of this run's timing statistics. */
  reused_ttfc_ms?: number | null;
  reused_latency_ms?: number | null;
  /** The suite marks this case or thread as expected to fail (`expect_fail: reason`): its failure does not fail the run. */
  expected_failure?: string;
  /** Reports only (never in results.ndjson): a person's label (labels.csv), which is this answer's verdict. */
  person?: { pass: boolean; note: string };
  /** Reports only: the checks' own verdict when a person's label or a calibration changed `pass`. */
  grader_pass?: boolean;
}

/** --judge-sample: the not-judged reason of a model-graded check left ungraded by the share; reports find these answers by it. */
export const NOT_SAMPLED = 'not sampled';

export const notSampledReason = (share: number): string => `${NOT_SAMPLED} (--judge-sample ${share})`;

/** Whether a not-judged reason is the sample's (by design) rather than a grader's failure. */
export const isNotSampled = (reason: string | undefined): boolean => reason !== undefined && reason.startsWith(NOT_SAMPLED);
