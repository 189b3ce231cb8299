// What results.ndjson can tell of a run's timeline when timeline.ndjson is missing (an older run,
// or a file lost): completions, errors, passes, credits and timings per second, and starts from the
// first request of each unit. Not known from results: in-flight, dropped starts and the loop delay.
import type { Sample } from '../domain/sample.js';
import type { TimelineLine } from '../domain/timeline.js';
import { IntervalSum } from './interval-bucket.js';
import type { GoodAnswer } from './goodput.js';

/**
 * Seconds kept open behind the latest completion: results arrive in completion order, nearly (a
 * judge's time comes after its answer's). A later one counts in the oldest open second.
 */
const OPEN_SECONDS = 30;

export interface TimelineRebuilder {
  add(sample: Sample): void;
  /** Lines of the seconds no later sample can reach any more, in order. */
  take(): TimelineLine[];
  /** Every remaining line. */
  finish(): TimelineLine[];
}

/**
 * `runStartWallMs`: run.json's started_at, until a sample tells the runner's own start (its
 * started_at less its offset: run.json's is stamped before the target was resolved and checked);
 * `targetRateAt` (ms since the start) when the run's options say what it meant to do.
 */
export function createTimelineRebuilder(runStartWallMs: number, targetRateAt?: (tMs: number) => number, goodAnswer?: GoodAnswer): TimelineRebuilder {
  let anchored = false;
  const open = new Map<number, IntervalSum>();
  let closedBefore = Number.NEGATIVE_INFINITY;
  let latest = Number.NEGATIVE_INFINITY;
  const ready: TimelineLine[] = [];

  const bucket = (t: number): IntervalSum => {
    const at = Math.max(t, closedBefore);
    let sum = open.get(at);
    if (!sum) {
      sum = new IntervalSum();
      open.set(at, sum);
    }
    return sum;
  };
  const close = (until: number): void => {
    const seconds = [...open.keys()].filter((t) => t < until).sort((a, b) => a - b);
    for (const t of seconds) {
      const offsetMs = t * 1000 - runStartWallMs;
      const target = targetRateAt ? Math.round(targetRateAt(Math.max(0, offsetMs + 500)) * 1000) / 1000 : null;
      const sum = open.get(t)!;
      sum.good ??= 0;
      ready.push({ ...sum.toLine(t, offsetMs, target), loop_delay_p99_ms: null, rebuilt: true });
      open.delete(t);
    }
    closedBefore = Math.max(closedBefore, until);
  };

  return {
    add(sample) {
      const startWallMs = Date.parse(sample.started_at);
      if (!Number.isFinite(startWallMs)) return;
      if (!anchored) {
        anchored = true;
        if (Number.isFinite(sample.offset_ms)) runStartWallMs = startWallMs - sample.offset_ms;
      }
      // A unit starts with its first request: a case, or a thread's first turn.
      if (sample.outcome !== 'skipped' && (sample.turn === null || sample.turn === 1)) bucket(Math.floor(startWallMs / 1000)).starts += 1;
      const doneT = Math.floor((startWallMs + (sample.latency_ms ?? 0)) / 1000);
      bucket(doneT).addSample(sample, goodAnswer?.(sample));
      latest = Math.max(latest, doneT);
      if (latest - OPEN_SECONDS > closedBefore) close(latest - OPEN_SECONDS);
    },
    take: () => ready.splice(0),
    finish() {
      close(Number.POSITIVE_INFINITY);
      return ready.splice(0);
    },
  };
}
