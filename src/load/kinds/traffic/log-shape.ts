// One pass over a traffic log before the run: its size, span and mean rate (what --traffic-rate
// scales from), starts per window (its stages), and its think times (turns per conversation, gaps).
import { statSync } from 'node:fs';
import { createHistogram, createTally, percentilesMs, recordMs } from '../../../metrics/histogram.js';
import { readLog, type LogEntry } from './read-log.js';

export interface ThinkTimeStats {
  conversations: number;
  /** Records outside any conversation (one-time questions). */
  one_time: number;
  turns_per_conversation: { p50: number; p95: number; max: number } | null;
  /** Recorded time between a conversation's turns. */
  gap_ms: { p50: number; p95: number; max: number } | null;
}

export interface LogShape {
  records: number;
  /** From 0 (the log's start) to its last record. */
  spanMs: number;
  /** Records per second over the span (null for a log whose records share one instant). */
  meanRatePerS: number | null;
  /** Records per window of `windowMs` of recorded time, from 0. */
  windowMs: number;
  startsPerWindow: number[];
  thinkTime: ThinkTimeStats;
  /** The file as it was read (size, modification time): --resume refuses a log changed since. */
  read?: LogFileStamp;
}

export interface LogFileStamp {
  bytes: number;
  mtimeMs: number;
}

/** The log file's size and modification time now. */
export function stampOf(file: string): LogFileStamp {
  const stat = statSync(file);
  // Whole milliseconds: what every tool that copies a file with its time (cp -p, rsync -t) keeps.
  return { bytes: stat.size, mtimeMs: Math.round(stat.mtimeMs) };
}

export const DEFAULT_TRAFFIC_WINDOW_MS = 60_000;

/**
 * Each conversation's last instant and turn count: one map entry (its index) and two typed-array
 * slots, not two maps of boxed numbers (100,000 conversations cost a few MB, not tens).
 */
class ConversationTally {
  private readonly index = new Map<string, number>();
  private lastAtMs = new Float64Array(1024);
  private turns = new Uint32Array(1024);

  get size(): number {
    return this.index.size;
  }

  /** Counts a turn at `offsetMs`; the gap since the conversation's previous turn, null for its first. */
  turn(key: string, offsetMs: number): number | null {
    const at = this.index.get(key);
    if (at !== undefined) {
      const gapMs = offsetMs - this.lastAtMs[at]!;
      this.lastAtMs[at] = offsetMs;
      this.turns[at]! += 1;
      return gapMs;
    }
    const slot = this.index.size;
    if (slot === this.turns.length) this.grow();
    this.index.set(key, slot);
    this.lastAtMs[slot] = offsetMs;
    this.turns[slot] = 1;
    return null;
  }

  turnCounts(): Uint32Array {
    return this.turns.subarray(0, this.index.size);
  }

  private grow(): void {
    const lastAtMs = new Float64Array(this.lastAtMs.length * 2);
    lastAtMs.set(this.lastAtMs);
    this.lastAtMs = lastAtMs;
    const turns = new Uint32Array(this.turns.length * 2);
    turns.set(this.turns);
    this.turns = turns;
  }
}

/** The shape of entries (a log read by readLog, or a list in a test); memory ∝ conversations, not records. */
export async function shapeOfEntries(entries: AsyncIterable<LogEntry> | Iterable<LogEntry>, windowMs = DEFAULT_TRAFFIC_WINDOW_MS): Promise<LogShape> {
  const conversations = new ConversationTally();
  const gaps = createHistogram();
  // Exact max beside the histogram: a gap of hours passes its trackable range.
  const gapTally = createTally();
  const startsPerWindow: number[] = [];
  let records = 0;
  let oneTime = 0;
  let spanMs = 0;
  for await (const { record, offsetMs } of entries) {
    records += 1;
    spanMs = offsetMs;
    const window = Math.floor(offsetMs / windowMs);
    while (startsPerWindow.length <= window) startsPerWindow.push(0);
    startsPerWindow[window]! += 1;
    if (record.conversation === undefined) {
      oneTime += 1;
      continue;
    }
    const gapMs = conversations.turn(record.conversation, offsetMs);
    if (gapMs !== null) recordMs(gaps, gapMs, gapTally);
  }
  const turnCounts = createHistogram();
  let maxTurns = 0;
  for (const count of conversations.turnCounts()) {
    recordMs(turnCounts, count);
    maxTurns = Math.max(maxTurns, count);
  }
  const turnStats = percentilesMs(turnCounts);
  const gapStats = percentilesMs(gaps, gapTally);
  return {
    records,
    spanMs,
    meanRatePerS: spanMs > 0 ? records / (spanMs / 1000) : null,
    windowMs,
    startsPerWindow,
    thinkTime: {
      conversations: conversations.size,
      one_time: oneTime,
      turns_per_conversation: turnStats === null ? null : { p50: Math.round(turnStats.p50), p95: Math.round(turnStats.p95), max: maxTurns },
      gap_ms: gapStats === null ? null : { p50: gapStats.p50, p95: gapStats.p95, max: gapStats.max },
    },
  };
}

/** The shape of a log file (its first pass; the replay reads it again as a stream). */
export function shapeOfLog(file: string, windowMs = DEFAULT_TRAFFIC_WINDOW_MS): Promise<LogShape> {
  return shapeOfEntries(readLog(file), windowMs);
}

/** The words printed before the run: what the log holds and how its conversations pace themselves. */
export function describeShape(shape: LogShape, timeScale: number): string[] {
  const t = shape.thinkTime;
  const rate = shape.meanRatePerS === null ? 'all at one instant' : `${round(shape.meanRatePerS)}/s on average`;
  const lines = [`traffic log: ${shape.records} records over ${round(shape.spanMs / 1000)}s recorded (${rate}), replayed in ${round(shape.spanMs / 1000 / timeScale)}s (time scale ${round(timeScale)})`];
  lines.push(`    ${t.conversations} conversations, ${t.one_time} one-time questions`);
  if (t.turns_per_conversation) {
    const tc = t.turns_per_conversation;
    lines.push(`    turns per conversation p50 ${tc.p50}, p95 ${tc.p95}, max ${tc.max}`);
  }
  if (t.gap_ms) lines.push(`    think time between turns (recorded) p50 ${round(t.gap_ms.p50 / 1000)}s, p95 ${round(t.gap_ms.p95 / 1000)}s, max ${round(t.gap_ms.max / 1000)}s`);
  return lines;
}

const round = (value: number): number => Math.round(value * 100) / 100;

/** `--traffic FILE` as the load input takes it: the file and its shape, read once (stages of `windowMs`, default a minute). */
export async function readTrafficSource(file: string, windowMs?: number): Promise<{ file: string; shape: LogShape }> {
  const read = stampOf(file);
  return { file, shape: { ...(await shapeOfLog(file, windowMs ?? DEFAULT_TRAFFIC_WINDOW_MS)), read } };
}
