// run.json's duration kept current while a run goes: a run killed with -9 leaves the time it had
// run, so a resume's duration (and requests/s) covers every segment that ran, not the last alone.
import { monotonicMs } from '../runner/index.js';

/** How often run.json's `duration_ms` is brought up to date while the run goes. */
export const HEARTBEAT_MS = 1_000;

/**
 * Calls `write(durationMs)` every `everyMs` with the run's duration so far: the earlier segments'
 * (`priorMs`) plus this one's, on the monotonic clock. A failed write (a full disk) is the results'
 * business, not the heartbeat's: it is skipped. The timer never keeps the process alive.
 */
export function startDurationHeartbeat(priorMs: number, write: (durationMs: number) => void, everyMs = HEARTBEAT_MS): { elapsedMs(): number; stop(): void } {
  const t0 = monotonicMs();
  const elapsedMs = (): number => monotonicMs() - t0;
  const timer = setInterval(() => {
    try {
      write(Math.round(priorMs + elapsedMs()));
    } catch {
      // Left to the results appender, which stops the run on a storage failure.
    }
  }, everyMs);
  timer.unref();
  return { elapsedMs, stop: () => clearInterval(timer) };
}
