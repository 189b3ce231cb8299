// Sends one request (ask or continue) through the run's client (retries are its layer, client/retry.ts), and returns its Sample with checks applied.
import type { AnswerResult } from '../domain/answer.js';
import type { AskRequest, ChatClient, ContinueRequest } from '../domain/client.js';
import { AbortedError, KbError, ValidationError } from '../domain/errors.js';
import type { CheckResult, Sample } from '../domain/sample.js';
import type { CheckSpec } from '../domain/suite.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { AnswerReuse } from '../domain/answer-reuse.js';
import { checkCreditUnits, fromUnits } from '../credits/units.js';
import { itemOutcome } from '../checks/outcome.js';
import type { PlanRequest } from '../plan/types.js';
import type { BackoffPolicy } from '../client/retry.js';
import { isoNow, roundMs, systemClock, type Clock } from './clock.js';
import { interruptedSample, sampleFromAnswer, sampleFromError, skippedSample, type SampleContext } from './sample-builder.js';

export interface CheckSubject {
  text: string;
  ttfc_ms: number | null;
  latency_ms: number | null;
  credits_used: number | null;
  prompt?: string;
  /** The result line's item id (the sample is the subject): --judge-sample draws by it. */
  item_id?: string;
}
export type CheckFn = (specs: CheckSpec[], subject: CheckSubject, signal: AbortSignal) => Promise<CheckResult[]>;

export interface SendDeps {
  /** The run's client, its retry layer around it (client/retry.ts `retryingClient`, wrapped once by startRun). */
  client: ChatClient;
  target: { boardId: string; chatId: string };
  timeoutMs: number;
  /** The retry policy the client's layer reads: the loop sets its deadline (an open loop's end). */
  backoff: BackoffPolicy;
  check: CheckFn;
  ledger: CreditLedger;
  /** Monotonic ms at which the run started: sample offsets are measured from it. */
  runStartMs: number;
  /** Where offsets and think times take their time from (default: the system's monotonic clock; tests pass a fake one). */
  clock?: Clock;
  /** Cancels requests in flight down to the socket: the hard abort, or the end of the graceful stop (`cut`). */
  abort: AbortSignal;
  /** The hard abort alone (results can no longer be written, or nobody reads them): what it cancels is not recorded. */
  hardAbort?: AbortSignal;
  /** The end of the graceful stop, or a second signal shortening it: what it cancels is recorded as `interrupted`. */
  cut?: AbortSignal;
  /** Aborted when a second signal cut the graceful stop short (the interrupted line says so). */
  signalCut?: AbortSignal;
  /** The graceful stop's length, for the interrupted line's message. */
  gracefulStopMs?: number;
  /** Models the service refused by name (model label → why); their remaining requests are skipped, not sent. */
  refusedModels?: ModelRefusals;
  /** --reuse-answers: earlier runs' answers, taken instead of sending (runner/reuse.ts). */
  reuse?: AnswerReuse;
}

/**
 * A model whose first answer came back as a validation error naming the `model` parameter is one
 * the service does not know: every other request of it would fail the same way (and a live
 * service may count them), so its remaining items are recorded as skipped with that reason.
 */
export class ModelRefusals {
  private readonly refused = new Map<string, string>();
  private readonly answered = new Set<string>();
  reasonFor(model: string): string | undefined {
    return this.refused.get(model);
  }
  observe(spec: PlanRequest, sample: Sample, error: KbError | null): void {
    if (sample.outcome === 'ok') this.answered.add(spec.model);
    if (!(error instanceof ValidationError) || spec.request_model === null || this.answered.has(spec.model)) return;
    const said = error.details?.model;
    if (said === undefined) return;
    this.refused.set(spec.model, `the service refused model "${spec.request_model}" (${typeof said === 'string' ? said : error.message}); its other requests were not sent`);
  }
}

/** How many attempts a failure took: the retry layer says so on the error when it made more than one. */
export const attemptsOf = (error: unknown): number => (error instanceof KbError ? error.attempts ?? 1 : 1);

/** Thrown when the user's hard abort cancelled the request: nothing is recorded, resume re-sends it. */
export class RequestCancelled extends Error {}

/**
 * The client's request for this spec: one object, its optional fields set only when the suite
 * gave them (a spread of a fresh object per optional field, per request, showed in the profile).
 */
function callClient(spec: PlanRequest, deps: SendDeps, conversationId: string | null): Promise<AnswerResult> {
  const o = spec.options;
  const streaming = o.streaming ?? true;
  const request: AskRequest = {
    boardId: deps.target.boardId,
    chatId: deps.target.chatId,
    prompt: spec.prompt,
    method: o.method ?? 'post',
    streaming,
    includeUsage: o.include_usage ?? streaming,
    signal: deps.abort,
    timeoutMs: deps.timeoutMs,
  };
  if (spec.request_model !== null) request.model = spec.request_model;
  if (o.plaintext !== undefined) request.plaintext = o.plaintext;
  if (o.additional_context !== undefined) request.additionalContext = o.additional_context;
  if (conversationId === null) return deps.client.ask(request);
  const turn: ContinueRequest = { ...request, conversationId };
  if (o.save_history !== undefined) turn.saveHistory = o.save_history;
  if (o.user !== undefined) turn.user = o.user;
  if (o.source !== undefined) turn.source = o.source;
  return deps.client.continueConversation(turn);
}

/** Runs the request until it succeeds, fails for good, or the retries are used up. */
export async function sendRequest(spec: PlanRequest, deps: SendDeps, conversationId: string | null): Promise<Sample> {
  const clock = deps.clock ?? systemClock;
  const startedAt = isoNow();
  const offsetMs = clock.now() - deps.runStartMs;
  const ctx = (attempts: number): SampleContext => ({
    endpoint: conversationId === null ? 'ask' : 'continue',
    method: spec.options.method ?? 'post',
    streaming: spec.options.streaming ?? true,
    conversationId,
    attempts,
    startedAt,
    offsetMs,
  });
  const firstSentAt = clock.now();
  const scheduled = (sample: Sample, sentAt: number | undefined): Sample => withSchedule(sample, spec.intended_at_ms, firstSentAt, sentAt);
  const refused = deps.refusedModels?.reasonFor(spec.model);
  if (refused !== undefined) return skippedSample(spec, ctx(0), refused);
  try {
    const answer = await callClient(spec, deps, conversationId);
    const sample = scheduled(sampleFromAnswer(spec, ctx(answer.attempts ?? 1), answer), answer.marks.sentAt);
    deps.refusedModels?.observe(spec, sample, null);
    return await withChecks(sample, spec, deps);
  } catch (error) {
    const attempts = attemptsOf(error);
    if (deps.abort.aborted || error instanceof AbortedError) {
      if (deps.cut?.aborted !== true || deps.hardAbort?.aborted === true) throw new RequestCancelled('cancelled');
      // Cut at the end of the graceful stop: recorded, with how long it was outstanding.
      const now = clock.now();
      const sample = interruptedSample(spec, ctx(attempts), now - firstSentAt, deps.gracefulStopMs ?? null, deps.signalCut?.aborted === true);
      sample.scheduled_delay_ms = spec.intended_at_ms == null ? 0 : roundMs(Math.max(0, firstSentAt - spec.intended_at_ms));
      sample.corrected_latency_ms = roundMs(now - (spec.intended_at_ms ?? firstSentAt));
      // It may have been charged: the budget counts it at its model's worst case.
      deps.ledger.record(sample.model, { creditsUsed: null, creditsRemaining: null, paidUnknown: true });
      return sample;
    }
    if (!(error instanceof KbError)) throw error;
    const sample = scheduled(sampleFromError(spec, ctx(attempts), error), error.partial?.marks.sentAt);
    deps.refusedModels?.observe(spec, sample, error);
    return withChecks(sample, spec, deps);
  }
}

/**
 * Open loop: lateness is measured when the first attempt was really sent (after any wait for a
 * slot or the budget), and the corrected latency runs from the intended start to the end of the
 * final attempt's answer, so retries and backoff count too: a stalled service cannot hide.
 */
function withSchedule(sample: Sample, intendedAtMs: number | null | undefined, firstSentAt: number, finalSentAt: number | undefined): Sample {
  // The sample was made for this request alone a moment ago: it is completed in place, not copied.
  if (intendedAtMs === undefined) return sample;
  if (intendedAtMs === null) {
    sample.scheduled_delay_ms = 0;
    if (sample.latency_ms !== null) sample.corrected_latency_ms = sample.latency_ms;
    return sample;
  }
  // Timers may fire a fraction of a millisecond early; a start is never earlier than its schedule.
  sample.scheduled_delay_ms = roundMs(Math.max(0, firstSentAt - intendedAtMs));
  if (sample.latency_ms === null || finalSentAt === undefined) return sample;
  sample.corrected_latency_ms = roundMs(Math.max(sample.latency_ms, finalSentAt + sample.latency_ms - intendedAtMs));
  return sample;
}

/** Charged but not reported: an answer without usage, a stream cut after a 2xx began, headers too large to read. */
const paidUnknown = (sample: Sample): boolean =>
  sample.credits_used === null && ((sample.status !== null && sample.status >= 200 && sample.status < 300) || sample.error?.code === 'E_HEADERS_OVERFLOW');

/**
 * The answer and its judges enter the ledger together, after the checks: until then the model's
 * worst case must not look known, or the budget would admit requests on the answer's cost alone.
 * An answer with no checks is booked at once (no promise per request). A reused answer (`reused`:
 * what it was when asked, which its checks judge) was not paid for now: only its judges are booked.
 */
export function withChecks(sample: Sample, spec: PlanRequest, deps: SendDeps, reused?: CheckSubject): Sample | Promise<Sample> {
  const paid = reused === undefined;
  if (sample.outcome !== 'ok') {
    if (paid) record(sample, deps);
    sample.pass = false;
    return sample;
  }
  if (spec.checks.length === 0) {
    // No check: the item passed with its answer (itemOutcome of none), its checks left empty.
    if (paid) record(sample, deps);
    sample.pass = true;
    return sample;
  }
  return deps.check(spec.checks, reused ?? sample, deps.abort).then((checks) => judged(sample, checks, deps, spec.score_threshold, paid));
}

function record(sample: Sample, deps: SendDeps): void {
  const balanceMissing = balanceMissingOf(sample);
  deps.ledger.record(sample.model, { creditsUsed: sample.credits_used, creditsRemaining: sample.credits_remaining, paidUnknown: paidUnknown(sample), ...(balanceMissing !== undefined ? { balanceMissing } : {}) });
}

/** A JSON answer reports its balance; one that did not (absent, null, 1e308) says what it sent instead. */
function balanceMissingOf(sample: Sample): string | undefined {
  if (sample.streaming || sample.outcome !== 'ok' || sample.credits_remaining !== null) return undefined;
  return /credits_remaining ([^,]*)/.exec(sample.credits_invalid ?? '')?.[1] ?? 'missing';
}

function judged(sample: Sample, checks: CheckResult[], deps: SendDeps, scoreThreshold: number | undefined, paid: boolean): Sample {
  if (paid) record(sample, deps);
  const extraUnits = checkCreditUnits(checks);
  if (extraUnits > 0) deps.ledger.recordExtra(sample.model, fromUnits(extraUnits));
  sample.checks = checks;
  const outcome = itemOutcome(checks, scoreThreshold);
  sample.pass = outcome.pass;
  if (outcome.score !== undefined) sample.score = outcome.score;
  if (outcome.not_judged !== undefined) sample.not_judged = outcome.not_judged;
  return sample;
}
