// Retry policy: which failures are worth another attempt, and how long to wait before it.
import type { KbError } from '../domain/errors.js';
import { KbError as KbErrorClass, RateLimitedError, ServerError } from '../domain/errors.js';
import { sleep } from './clock.js';

export interface BackoffPolicy {
  retries: number;
  baseMs: number;
  capMs: number;
  /** Injected for tests; Math.random in production. */
  random: () => number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { retries: 2, baseMs: 250, capMs: 10_000, random: Math.random };

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
  const retryAfterMs = error instanceof RateLimitedError || error instanceof ServerError ? error.retryAfterMs : undefined;
  if (retryAfterMs !== undefined) return retryAfterMs + jittered * 0.1;
  return jittered;
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
export async function withRetries<T>(attempt: (n: number) => Promise<T>, policy: BackoffPolicy, signal: AbortSignal): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof KbErrorClass) || n > policy.retries || !isRetryable(error) || signal.aborted) throw error;
      if (!(await sleep(backoffDelayMs(n, error, policy), signal))) throw error;
    }
  }
}
