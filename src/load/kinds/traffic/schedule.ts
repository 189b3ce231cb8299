// The replay's schedule: a log's offsets scaled (--time-scale, or --traffic-rate as a scale that keeps
// the shape), cut (--duration), repeated (--loop) and split (--shard, --workers) by conversation, so a
// thread's turns always stay on one loop. A stream in, a stream out.
import { idHash } from '../../../suite/csv-ids.js';
import type { LogEntry } from './read-log.js';
import type { TrafficRecord } from './record.js';

export interface ReplayOptions {
  /** 2 = twice as fast. */
  timeScale: number;
  /** Starts at or after this (replayed ms) are not sent; absent: the log's end (or forever with `loop`). */
  durationMs?: number;
  /** Replay the log again after its end (`spanMs` + one gap later), until `durationMs`. */
  loop?: { spanMs: number };
  /** Keep only this part (1-based index of count) of the conversations; a later part splits the one before (a --shard's workers). */
  parts?: readonly { index: number; count: number }[];
}

/** A record due on the run's clock: `dueMs` from t0; `pass` 1-based (--loop); `index` its place in the whole replay. */
export interface DueRecord {
  record: TrafficRecord;
  dueMs: number;
  pass: number;
  index: number;
  /** The conversation key of this pass (`c7`, then `c7#2`…), null for a one-time question. */
  conversationKey: string | null;
}

/** The time scale that gives `ratePerS` on average from a log's mean rate: the shape kept, its speed changed. */
export function scaleForRate(ratePerS: number, meanRatePerS: number | null): number {
  if (meanRatePerS === null || meanRatePerS <= 0) throw new RangeError('the log has no span to scale: its records share one instant');
  return ratePerS / meanRatePerS;
}

/** Which part of N a record belongs to: its conversation decides, so a thread stays on one loop. */
export function partOf(record: TrafficRecord, count: number, level = 0): number {
  const key = record.conversation ?? `line:${record.line}`;
  return (idHash(level === 0 ? key : `${level}:${key}`) % count) + 1;
}

const inParts = (record: TrafficRecord, parts: ReplayOptions['parts']): boolean =>
  (parts ?? []).every((part, level) => partOf(record, part.count, level) === part.index);

/**
 * The due records of a replay. `read` gives the log's entries afresh for each pass (a file read
 * again as a stream); a looped pass starts a mean gap after the previous one ended.
 */
export async function* replaySchedule(read: () => AsyncIterable<LogEntry> | Iterable<LogEntry>, options: ReplayOptions): AsyncGenerator<DueRecord> {
  const { timeScale, durationMs } = options;
  let pass = 1;
  let index = 0;
  let passStartMs = 0;
  for (;;) {
    let seen = 0;
    for await (const { record, offsetMs } of read()) {
      seen += 1;
      const dueMs = passStartMs + offsetMs / timeScale;
      if (durationMs !== undefined && dueMs >= durationMs) return;
      const at = index;
      index += 1;
      if (!inParts(record, options.parts)) continue;
      const conversationKey = record.conversation === undefined ? null : pass === 1 ? record.conversation : `${record.conversation}#${pass}`;
      yield { record, dueMs, pass, index: at, conversationKey };
    }
    if (!options.loop || seen === 0 || durationMs === undefined) return;
    // The next pass begins one mean gap after the last record, so the seam looks like the log.
    const gapMs = seen > 1 ? options.loop.spanMs / (seen - 1) : 1000;
    passStartMs += (options.loop.spanMs + gapMs) / timeScale;
    pass += 1;
  }
}
