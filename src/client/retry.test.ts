import { describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError, RateLimitedError, ServerError, TimeoutError } from '../domain/errors.js';
import { backoffDelayMs, isRetryable, retryCall, retryingClient, type BackoffPolicy } from './retry.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { failingFirst, scriptedAnswer, scriptedClient } from '../test-support/scripted-client.js';

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

  async function attemptsUntilFailure(error: () => Error, p = policy, clock = new FakeClock()): Promise<{ attempts: number; error: Error }> {
    let attempts = 0;
    const failure = await clock.run(retryCall(async () => {
      attempts += 1;
      throw error();
    }, p, signal, clock).catch((e: unknown) => e as Error));
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
    const clock = new FakeClock();
    const { attempts, error } = await attemptsUntilFailure(() => rateLimited(1), { ...policy, deadlineMs: clock.now() + 50 }, clock);
    expect(attempts).toBe(1);
    expect(error.message).toContain("after the run's deadline");
  });
});


describe('the retry layer around the client (client/retry.ts retryingClient)', () => {
  const fast: BackoffPolicy = { ...policy, retries: 2, random: () => 0.5 };

  it('with no retries it is the client itself: no layer, no async frame per request', () => {
    const client = scriptedClient(async () => scriptedAnswer('x', 0));
    expect(retryingClient(client, { ...policy, retries: 0 })).toBe(client);
  });

  it('retries a 429 and a 503, waits on its clock (Retry-After a floor) and says how many attempts the answer took', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(failingFirst([new RateLimitedError('slow down', 429, null, 1500), new ServerError('boom', 503, null)], clock));
    const answer = await clock.run(retryingClient(client, fast, clock).ask({ boardId: 'b', chatId: 'c', prompt: 'q' }));
    expect(answer).toMatchObject({ text: 'fine', attempts: 3 });
    expect(clock.slept[0]).toBeGreaterThanOrEqual(1500);
    expect(clock.slept[1]).toBe(100); // full jitter: random 0.5 of baseMs × 2
    expect(client.log).toHaveLength(3);
  });

  it('a failure that used the retries up carries its attempts; one not retried carries none (one attempt)', async () => {
    const clock = new FakeClock();
    const failing = scriptedClient(async () => {
      throw new ServerError('down', 500, null);
    });
    const error = await clock.run(retryingClient(failing, fast, clock).ask({ boardId: 'b', chatId: 'c', prompt: 'q' }).catch((e: unknown) => e as ServerError));
    expect(error.attempts).toBe(3);
    const notFound = scriptedClient(async () => {
      throw new NotFoundError('gone', 404, null);
    });
    const once = await retryingClient(notFound, fast, clock).ask({ boardId: 'b', chatId: 'c', prompt: 'q' }).catch((e: unknown) => e as NotFoundError);
    expect(once.attempts).toBeUndefined();
    expect(notFound.log).toHaveLength(1);
  });

  it('a stop during the wait ends it at once with the last error', async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const client = scriptedClient(async () => {
      throw new ServerError('down', 500, null);
    });
    const asking = retryingClient(client, { ...fast, baseMs: 60_000, capMs: 60_000 }, clock).ask({ boardId: 'b', chatId: 'c', prompt: 'q', signal: stop.signal });
    const caught = asking.catch((e: unknown) => e as ServerError);
    await clock.settle();
    stop.abort();
    const error = (await caught) as ServerError;
    expect(error.code).toBe('E_SERVER');
    expect(client.log).toHaveLength(1);
  });
});
