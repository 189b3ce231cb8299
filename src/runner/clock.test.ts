// The system clock's sleep: long waits in parts (setTimeout overflows past 2^31 − 1 ms), and a stop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, sleep, systemClock } from './clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock', () => {
  it("sleeps past the timer's range in parts instead of overflowing to 1 ms", async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    let settled: boolean | undefined;
    const waiting = sleep(MAX_TIMER_MS * 2 + 10, stop.signal).then((r) => (settled = r));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 5);
    expect(settled).toBeUndefined();
    stop.abort();
    await waiting;
    expect(settled).toBe(false);
  });

  it('its timers are setTimeout and clearTimeout: one cleared never runs', async () => {
    vi.useFakeTimers();
    const ran: string[] = [];
    systemClock.setTimer(() => ran.push('a'), 10);
    const b = systemClock.setTimer(() => ran.push('b'), 5);
    systemClock.clearTimer(b);
    systemClock.clearTimer(undefined);
    await vi.advanceTimersByTimeAsync(20);
    expect(ran).toEqual(['a']);
  });
});
