import { describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError, RateLimitedError, ServerError, TimeoutError } from '../domain/errors.js';
import { backoffDelayMs, isRetryable, withRetries, type BackoffPolicy } from './backoff.js';
import { MAX_TIMER_MS, monotonicMs, sleep } from './clock.js';

const policy: BackoffPolicy = { retries: 3, baseMs: 100, capMs: 1000, random: () => 1, maxWaitMs: 60_000 };

describe('backoff', () => {
  it('retries 429, 5xx and connection errors but not timeouts or 404', () => {
    expect(isRetryable(new RateLimitedError('x', 429, null, 1000))).toBe(true);
    expect(isRetryable(new ServerError('x', 503, null))).toBe(true);
    expect(isRetryable(new ConnectionError('x', 'ECONNRESET'))).toBe(true);
    expect(isRetryable(new TimeoutError('x', 'headers'))).toBe(false);
    expect(isRetryable(new NotFoundError('x', 404, null))).toBe(false);
  });

  it('grows exponentially up to the cap', () => {
    const e = new ServerError('x', 500, null);
    expect([1, 2, 3, 4, 5].map((r) => backoffDelayMs(r, e, policy))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('honours a Retry-After on a 503 too', () => {
    expect(backoffDelayMs(1, new ServerError('busy', 503, null, 1500), { ...policy, random: () => 0 })).toBe(1500);
  });

  it('never waits less than Retry-After', () => {
    const e = new RateLimitedError('x', 429, null, 2000);
    expect(backoffDelayMs(1, e, { ...policy, random: () => 0 })).toBe(2000);
    expect(backoffDelayMs(1, e, policy)).toBeGreaterThanOrEqual(2000);
  });
});

describe('--max-retry-wait bounds every wait (finding 4)', () => {
  const signal = new AbortController().signal;
  const rateLimited = (seconds: number) => new RateLimitedError('429 Too Many Requests', 429, null, seconds * 1000);

  async function attemptsUntilFailure(error: () => Error, p = policy): Promise<{ attempts: number; error: Error }> {
    let attempts = 0;
    const failure = await withRetries(async () => {
      attempts += 1;
      throw error();
    }, p, signal).catch((e: unknown) => e as Error);
    return { attempts, error: failure };
  }

  for (const seconds of [999_999, 9_999_999]) {
    it(`a Retry-After of ${seconds}s (longer than the cap) ends the retries at once, recorded as rate limited with the wait asked`, async () => {
      const { attempts, error } = await attemptsUntilFailure(() => rateLimited(seconds));
      expect(attempts).toBe(1);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error.message).toContain(`asked to wait ${seconds}s (Retry-After), longer than --max-retry-wait 60s`);
    });
  }

  it('a Retry-After within the cap is waited in full; jitter never takes it past the cap', () => {
    expect(backoffDelayMs(1, rateLimited(60), policy)).toBe(60_000);
    expect(backoffDelayMs(1, rateLimited(30), policy)).toBeGreaterThanOrEqual(30_000);
    expect(backoffDelayMs(3, new ServerError('x', 500, null), { ...policy, capMs: 1e9, baseMs: 1e6, maxWaitMs: 5000 })).toBe(5000);
  });

  it('no wait ends past the run\'s deadline', async () => {
    const { attempts, error } = await attemptsUntilFailure(() => rateLimited(1), { ...policy, deadlineMs: monotonicMs() + 50 });
    expect(attempts).toBe(1);
    expect(error.message).toContain("after the run's deadline");
  });

  it("sleeps past the timer's range in parts instead of overflowing to 1 ms", async () => {
    const stop = new AbortController();
    let settled: boolean | undefined;
    const waiting = sleep(MAX_TIMER_MS * 2 + 10, stop.signal).then((r) => (settled = r));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBeUndefined();
    stop.abort();
    await waiting;
    expect(settled).toBe(false);
  });
});

