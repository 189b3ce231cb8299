// The open loop (k6's constant- and ramping-arrival-rate): starts are due at their scheduled time
// whatever the service does, so a slow service cannot slow the arrivals and hide its own stall
// (coordinated omission). Starts past the in-flight cap are held, sent late, or dropped at the end.
import type { Shard } from '../../../plan/types.js';
import type { ScheduledStart } from '../../../runner/arrivals.js';
import type { Executor, Loop } from '../../../runner/loop/executor.js';
import { segmentSchedule, workerSegment, workerShare } from '../../../runner/segment.js';

export interface ArrivalsSpec {
  /** Intended start offsets from t0, in order (arrivals.ts); drawn one at a time, never materialised. */
  schedule: Iterator<ScheduledStart>;
  /** When the schedule ends: starts still held then are dropped. */
  durationMs: number;
  /** Outstanding starts beyond this are held (and sent late); those still held at the end are dropped. */
  maxInFlight: number;
  /** `--shard i/N`: only this segment of the whole run's starts (segment.ts). */
  segment?: Shard | null;
}

/** `offsetMs`: where on the run's clock the schedule's 0 lies; `indexBase`: added to each start's global index. */
export function arrivalsExecutor(spec: ArrivalsSpec, offsetMs = 0, indexBase = 0): Executor {
  const starts = segmentSchedule(spec.schedule, spec.segment ?? null);
  let next = starts.next();
  const endMs = offsetMs + spec.durationMs;
  return {
    cycles: true,
    timeBound: true,
    maxInFlight: () => spec.maxInFlight,
    next: ({ elapsedMs }) => {
      // Every start whose time has come is due at once, so a late timer never makes the loop fall behind.
      if (!next.done && offsetMs + next.value.atMs <= elapsedMs && offsetMs + next.value.atMs < endMs) {
        const due = next.value;
        next = starts.next();
        return { kind: 'start', intendedAtMs: offsetMs + due.atMs, index: indexBase + due.index };
      }
      if (elapsedMs >= endMs) return { kind: 'done' };
      return { kind: 'wait', untilMs: next.done ? endMs : Math.min(endMs, offsetMs + next.value.atMs) };
    },
  };
}

/**
 * The run's loop: retries end with the schedule; worker w of W takes its segment of the starts
 * (within the --shard's) and its share of the in-flight cap.
 */
export function arrivalsLoop(spec: ArrivalsSpec): Loop {
  return {
    kind: 'arrivals',
    executor(control) {
      control.setRetryDeadline(spec.durationMs);
      return arrivalsExecutor(spec);
    },
    share: (index, count) => arrivalsLoop({
      ...spec, segment: workerSegment(spec.segment ?? null, index, count), maxInFlight: workerShare(spec.maxInFlight, index, count, '--max-in-flight'),
    }),
  };
}
