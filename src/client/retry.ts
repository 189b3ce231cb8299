// Retry policy: which failures are worth another attempt, and how long to wait before it.
import type { KbError } from '../domain/errors.js';
import { KbError as KbErrorClass, RateLimitedError, ServerError } from '../domain/errors.js';
import { monotonicMs, sleep } from './clock.js';

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
function waitRefusal(delayMs: number, error: KbError, policy: BackoffPolicy): string | null {
  const asked = retryAfterOf(error);
  if (asked !== undefined && asked > policy.maxWaitMs) {
    return `the service asked to wait ${seconds(asked)} (Retry-After), longer than --max-retry-wait ${seconds(policy.maxWaitMs)}: not retried`;
  }
  if (policy.deadlineMs !== undefined && monotonicMs() + delayMs > policy.deadlineMs) return 'the wait before a retry would end after the run\'s deadline: not retried';
  return null;
}

function answerBegan(error: KbError): boolean {
  const status = error.partial?.status ?? null;
  return status !== null && status >= 200 && status < 300;
}

/**
 * The one retry path (as undici's retry interceptor): every call that may be retried — an answer, a
 * conversation's creation, a judge, the preflight — runs through it. `attempt` gets its 1-based
 * number. The last error is thrown as it was; a stop during a wait throws it at once, so the
 * caller decides, from its signal, whether that was a cancellation.
 */
export function withRetries<T>(attempt: (n: number) => Promise<T>, policy: BackoffPolicy, signal: AbortSignal): Promise<T> {
  // No retries: the attempt is the answer, without an async frame of its own around it (a throw
  // comes out as a rejection all the same).
  if (policy.retries < 1) {
    try {
      return attempt(1);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  return attempts(attempt, policy, signal);
}

async function attempts<T>(attempt: (n: number) => Promise<T>, policy: BackoffPolicy, signal: AbortSignal): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof KbErrorClass) || n > policy.retries || !isRetryable(error) || signal.aborted) throw error;
      const delayMs = backoffDelayMs(n, error, policy);
      const refusal = waitRefusal(delayMs, error, policy);
      if (refusal !== null) {
        error.message = `${error.message} (${refusal})`;
        throw error;
      }
      if (!(await sleep(delayMs, signal))) throw error;
    }
  }
}
