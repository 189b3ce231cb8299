// Retry as one layer around the client (undici's retry interceptor): which failures are worth
// another attempt, how long to wait before it, and the wrapper that does it for a ChatClient.
import type { AnswerResult } from '../domain/answer.js';
import type { AskRequest, ChatClient, ContinueRequest, CreateConversationRequest } from '../domain/client.js';
import type { KbError } from '../domain/errors.js';
import { KbError as KbErrorClass, RateLimitedError, ServerError } from '../domain/errors.js';
import { systemClock, type Clock } from '../runner/clock.js';

export interface BackoffPolicy {
  retries: number;
  baseMs: number;
  capMs: number;
  /** Injected for tests; Math.random in production. */
  random: () => number;
  /**
   * --max-retry-wait: no wait before a retry is longer. A service asking (Retry-After) for more
   * ends that request's retries instead: a retry is never sent sooner than the service asked.
   */
  maxWaitMs: number;
  /** Monotonic ms past which no wait may end (an open loop's end); none when absent. */
  deadlineMs?: number;
}

/** The default of --max-retry-wait (README, "Limits"). */
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

export const DEFAULT_BACKOFF: BackoffPolicy = { retries: 2, baseMs: 250, capMs: 10_000, random: Math.random, maxWaitMs: DEFAULT_MAX_RETRY_WAIT_MS };

/**
 * 429, 5xx and connection failures before an answer began are transient; a timeout is not
 * retried because the service may still be answering (and charging) the first attempt.
 */
export function isRetryable(error: KbError): boolean {
  switch (error.code) {
    case 'E_RATE_LIMITED':
    case 'E_SERVER':
      return true;
    case 'E_CONNECTION':
      // Once a 2xx answer began, the service has charged for it: another attempt would pay twice.
      return !answerBegan(error);
    default:
      return false;
  }
}

/**
 * Delay before retry number `retry` (1-based): "full jitter" exponential backoff, as AWS's
 * architecture blog recommends, so synchronised clients spread out. A Retry-After from the
 * service is a floor: retrying sooner would only be refused again.
 */
export function backoffDelayMs(retry: number, error: KbError, policy: BackoffPolicy): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (retry - 1));
  const jittered = policy.random() * ceiling;
  const retryAfterMs = retryAfterOf(error);
  // The service's wait is a floor; the jitter on top of it never takes the wait past the cap.
  if (retryAfterMs !== undefined) return Math.max(retryAfterMs, Math.min(retryAfterMs + jittered * 0.1, policy.maxWaitMs));
  return Math.min(jittered, policy.maxWaitMs);
}

function retryAfterOf(error: KbError): number | undefined {
  return error instanceof RateLimitedError || error instanceof ServerError ? error.retryAfterMs : undefined;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}s`;

/**
 * Why no retry may follow, or null when one may: the service asked for a longer wait than
 * --max-retry-wait allows, or the wait would end past the run's deadline. Said in the error, which
 * stays what it was (a 429 is recorded as rate limited, with the wait it asked for).
 */
function waitRefusal(delayMs: number, error: KbError, policy: BackoffPolicy, clock: Clock): string | null {
  const asked = retryAfterOf(error);
  if (asked !== undefined && asked > policy.maxWaitMs) {
    return `the service asked to wait ${seconds(asked)} (Retry-After), longer than --max-retry-wait ${seconds(policy.maxWaitMs)}: not retried`;
  }
  if (policy.deadlineMs !== undefined && clock.now() + delayMs > policy.deadlineMs) return 'the wait before a retry would end after the run\'s deadline: not retried';
  return null;
}

function answerBegan(error: KbError): boolean {
  const status = error.partial?.status ?? null;
  return status !== null && status >= 200 && status < 300;
}

/**
 * The one retry loop: `attempt` is called until it succeeds, fails for good, or the retries are
 * used up. A KbError leaving it carries how many attempts were made (`attempts`, when more than
 * one); `retried` hears of a value that took more than one. The last error is thrown as it was; a
 * stop during a wait throws it at once, so the caller decides, from its signal, whether that was a
 * cancellation.
 */
export async function retryCall<T>(
  attempt: () => Promise<T>,
  policy: BackoffPolicy,
  signal: AbortSignal | undefined,
  clock: Clock = systemClock,
  retried?: (value: T, attempts: number) => void,
): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      const value = await attempt();
      if (n > 1) retried?.(value, n);
      return value;
    } catch (error) {
      if (!(error instanceof KbErrorClass)) throw error;
      if (n > 1) error.attempts = n;
      if (n > policy.retries || !isRetryable(error) || signal?.aborted === true) throw error;
      const delayMs = backoffDelayMs(n, error, policy);
      const refusal = waitRefusal(delayMs, error, policy, clock);
      if (refusal !== null) {
        error.message = `${error.message} (${refusal})`;
        throw error;
      }
      if (!(await clock.sleep(delayMs, signal))) throw error;
    }
  }
}

const stampAttempts = (answer: AnswerResult, attempts: number): void => {
  answer.attempts = attempts;
};

/**
 * The client with retries around every call, wrapped once by whoever owns the policy (a run, the
 * preflight). With no retries it is the client itself: no layer, no async frame per request.
 * `policy` is read at each retry, so a deadline set on it later (an open loop's end) applies.
 */
export function retryingClient(client: ChatClient, policy: BackoffPolicy, clock: Clock = systemClock): ChatClient {
  if (policy.retries < 1) return client;
  return {
    ask: (request: AskRequest) => retryCall(() => client.ask(request), policy, request.signal, clock, stampAttempts),
    continueConversation: (request: ContinueRequest) =>
      retryCall(() => client.continueConversation(request), policy, request.signal, clock, stampAttempts),
    createConversation: (request: CreateConversationRequest) => retryCall(() => client.createConversation(request), policy, request.signal, clock),
    listBoards: (signal?: AbortSignal, timeoutMs?: number) => retryCall(() => client.listBoards(signal, timeoutMs), policy, signal, clock),
    listChats: (boardId: string, signal?: AbortSignal, timeoutMs?: number) => retryCall(() => client.listChats(boardId, signal, timeoutMs), policy, signal, clock),
    close: () => client.close(),
  };
}
