// The runner's clock: monotonic milliseconds for every duration, wall-clock ISO only for labels.
import { performance } from 'node:perf_hooks';

/** Monotonic ms with sub-millisecond precision; the only time source for durations. */
export const monotonicMs = (): number => performance.now();

/** Wall-clock ISO time for `started_at` labels; never used to measure a duration. */
export const isoNow = (): string => new Date().toISOString();

/** Resolves after `ms`, or at once when `signal` aborts (then it resolves `false`). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
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

/** Rounds a duration to microseconds: sub-ms precision without float noise in the files. */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;
