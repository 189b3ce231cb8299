import { describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError, RateLimitedError, ServerError, TimeoutError } from '../domain/errors.js';
import { backoffDelayMs, isRetryable } from './backoff.js';

const policy = { retries: 3, baseMs: 100, capMs: 1000, random: () => 1 };

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
