import { describe, expect, it } from 'vitest';
import { RequestGuard } from './request-guard.js';

describe('RequestGuard', () => {
  it('aborts every request in flight on the caller signal, none that finished, with one listener on it', () => {
    const caller = new AbortController();
    let added = 0;
    const add = caller.signal.addEventListener.bind(caller.signal);
    caller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added += 1;
      add(...args);
    }) as typeof caller.signal.addEventListener;
    const guards = Array.from({ length: 1000 }, () => new RequestGuard(caller.signal, 0, 'POST /x'));
    for (const guard of guards.slice(0, 400)) guard.dispose();
    caller.abort();
    expect(added).toBe(1);
    expect(guards.slice(0, 400).every((g) => g.reason === null && !g.signal.aborted)).toBe(true);
    expect(guards.slice(400).every((g) => g.reason === 'caller' && g.signal.aborted)).toBe(true);
  });

  it('refuses to start when the caller already aborted, and times out on its own deadline', async () => {
    const caller = new AbortController();
    caller.abort();
    expect(() => new RequestGuard(caller.signal, 0, 'POST /x')).toThrow(/aborted by the caller/);
    const timed = new RequestGuard(undefined, 5, 'POST /x');
    // Waits for the guard's own abort, not a guessed time (the deadline list is deadlines.test.ts's, on a fake clock).
    await new Promise((resolve) => timed.signal.addEventListener('abort', resolve, { once: true }));
    expect(timed.reason).toBe('timeout');
  });
});
