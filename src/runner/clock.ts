// The runner's clock: monotonic milliseconds for every duration, wall-clock ISO only for labels.
import { performance } from 'node:perf_hooks';

/** Monotonic ms with sub-millisecond precision; the only time source for durations. */
export const monotonicMs = (): number => performance.now();

let lastLabelMs = -1;
let lastLabel = '';

/**
 * Wall-clock ISO time for `started_at` labels; never used to measure a duration. It is the
 * process's time origin plus the monotonic clock, so labels of one run never jump back with a clock
 * adjustment, and one label serves every request started in the same millisecond (formatting a
 * Date per request showed in the profile at thousands of requests a second).
 */
export function isoNow(): string {
  const ms = Math.floor(performance.timeOrigin + performance.now());
  if (ms !== lastLabelMs) {
    lastLabelMs = ms;
    lastLabel = new Date(ms).toISOString();
  }
  return lastLabel;
}

/** setTimeout's longest delay: a longer one overflows and fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Resolves after `ms`, or at once when `signal` aborts (then it resolves `false`). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  // A wait past the timer's range is slept in parts, never cut to 1 ms by the overflow.
  let left = ms;
  while (left > MAX_TIMER_MS) {
    if (!(await sleepOnce(MAX_TIMER_MS, signal))) return false;
    left -= MAX_TIMER_MS;
  }
  return sleepOnce(left, signal);
}

function sleepOnce(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, Math.max(0, ms));
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A timer of a Clock: what `setTimer` returns and `clearTimer` takes (a Timeout on the system clock). */
export type ClockTimer = ReturnType<typeof setTimeout> | number;

/**
 * The runner's time as a value (tinybench's injectable `now` and timers): the system's monotonic
 * clock and plain setTimeout in a run, a fake one in a test (src/test-support/fake-clock.ts), which
 * then advances time instead of waiting for it (a think time of 60 ms, an open loop of 2 s, take none).
 */
export interface Clock {
  /** Monotonic ms. */
  now(): number;
  /** Resolves true after `ms`, or false at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
  /** setTimeout on this clock: `callback` runs once `ms` have passed on it. */
  setTimer(callback: () => void, ms: number): ClockTimer;
  /** clearTimeout on this clock; nothing for undefined or a timer that already ran. */
  clearTimer(timer: ClockTimer | undefined): void;
}

/** The real clock: performance.now and setTimeout themselves, nothing in between (the hot path's timers). */
export const systemClock: Clock = {
  now: monotonicMs,
  sleep,
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (timer) => clearTimeout(timer),
};

/** Rounds a duration to microseconds: sub-ms precision without float noise in the files. */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;
