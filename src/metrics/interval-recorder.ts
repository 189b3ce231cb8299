// The per-second interval recorder (HdrHistogram's interval recorder idea): events in as the run
// goes, one timeline line out per wall-clock second, memory bounded by one open second plus the
// last few closed lines the live view reads.
import type { Sample } from '../domain/sample.js';
import type { TimelineLine } from '../domain/timeline.js';
import { IntervalSum } from './interval-bucket.js';
import type { GoodAnswer } from './goodput.js';

export interface IntervalRecorderOptions {
  /** The run's start on the monotonic clock (offsets and the target rate are measured from it). */
  runStartMs: number;
  /**
   * When recording begins (monotonic ms; default runStartMs): a resumed run's clock goes on from an
   * earlier t0 (the schedule's), and its first line is the second it began in, not that t0's.
   */
  openedAtMs?: number;
  /** Wall-clock ms at monotonic 0 (performance.timeOrigin): seconds are wall-clock seconds, so shards align. */
  wallOriginMs: number;
  /** Intended starts per second at ms since the run's start; absent in a closed loop. */
  targetRateAt?: (tMs: number) => number;
  /** Seconds the live view looks back over; 10 by default. */
  recentSeconds?: number;
  /** Which answers count in goodput (goodput.ts); those that passed their checks when absent. */
  goodAnswer?: GoodAnswer;
}

/** What the console's live line shows, over the last `seconds` closed seconds. */
export interface LiveInterval {
  /** The latest line. */
  line: TimelineLine;
  seconds: number;
  /** The schedule's target now (starts/s), not a trailing mean; null in a closed loop or once the schedule ended. */
  target_rate: number | null;
  achieved_rate: number;
  in_flight: number;
  /** p95 over the last seconds: corrected latency when the run has it (open loop), else latency. */
  p95_ms: number | null;
  p95_metric: 'corrected_latency_ms' | 'latency_ms';
  /** TTFC p95 over the last seconds' answers. */
  ttfc_p95_ms: number | null;
  errors: number;
  dropped: number;
  /** Starts due and held back by the in-flight cap now (open loop), null in a closed loop. */
  held: number | null;
  /** How long the oldest unit in flight has waited (from its intended start), ms. */
  in_flight_oldest_ms: number | null;
  /** Said by the session, not the recorder: the load's shape around these figures. */
  time_bound?: boolean;
  /** The in-flight cap that holds starts back (open loop). */
  max_in_flight?: number | null;
  /** --concurrency-stages: the workers the stages ask for now. */
  workers_target?: number | null;
  /** A sweep's phase: its probes, or which rate. */
  phase?: string | null;
}

/** The harness's event-loop delay p99 (ms) since it was last read, null when not measured. */
export type LoopDelaySource = () => number | null;
const noLoopDelay: LoopDelaySource = () => null;

export class IntervalRecorder {
  private current: IntervalSum;
  private currentT: number;
  private inFlight = 0;
  private readonly recentLines: TimelineLine[] = [];
  /** The same seconds' sums: the live p95 adds their histograms directly (decoding ten lines a second cost tens of ms). */
  private readonly recentSums: IntervalSum[] = [];
  private readonly recentSeconds: number;
  private scheduleEnded = false;
  /** Units in flight: since when each waits (its intended start, else its start), by start id; as many as are in flight. */
  private readonly waiting = new Map<number, number>();
  private heldNow: number | null = null;
  /** The open second's dropped starts by item id (a replay's), written in its line. */
  private droppedItems: string[] = [];

  constructor(private readonly options: IntervalRecorderOptions) {
    this.recentSeconds = options.recentSeconds ?? 10;
    this.currentT = this.secondOf(options.openedAtMs ?? options.runStartMs);
    this.current = new IntervalSum();
  }

  start(atMs: number, id?: number, intendedAtMs?: number | null): void {
    this.roll(atMs);
    this.current.starts += 1;
    if (id !== undefined) this.waiting.set(id, intendedAtMs ?? atMs);
    if (intendedAtMs !== null && intendedAtMs !== undefined) this.current.planned = (this.current.planned ?? 0) + 1;
    this.inFlight += 1;
    this.current.inFlightMax = Math.max(this.current.inFlightMax, this.inFlight);
  }

  settled(atMs: number, id?: number): void {
    this.roll(atMs);
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (id !== undefined) this.waiting.delete(id);
  }

  /** Starts given up: planned, never sent; `items` names them when the load does (the line keeps them for a resume). */
  dropped(count: number, atMs: number, items?: readonly string[]): void {
    this.roll(atMs);
    this.current.dropped += count;
    if (items !== undefined && items.length > 0) for (const item of items) this.droppedItems.push(item); // no spread: a batch of 125k+ ids overflows the call stack
    this.current.planned = (this.current.planned ?? 0) + count;
  }

  /** Starts held back by the in-flight cap, now. */
  held(count: number, atMs: number): void {
    this.roll(atMs);
    this.heldNow = count;
  }

  /** How long each unit in flight has waited at `nowMs` (corrected: from its intended start). */
  private waitsAt(nowMs: number): number[] {
    const waits: number[] = [];
    for (const fromMs of this.waiting.values()) waits.push(Math.max(0, nowMs - fromMs));
    return waits;
  }

  sample(sample: Sample, atMs: number): void {
    this.roll(atMs);
    this.current.addSample(sample, this.options.goodAnswer?.(sample));
  }

  /**
   * The lines of every second that ended before `nowMs` (seconds without events included, so the
   * file has one line per second). `loopDelay` reads (and resets) the harness's loop delay p99
   * since the last closed second; it is called only when a second closes.
   */
  flush(nowMs: number, loopDelay: LoopDelaySource = noLoopDelay): TimelineLine[] {
    const t = this.secondOf(nowMs);
    return this.closeUntil(t, this.pending.length > 0 || t > this.currentT ? loopDelay() : null);
  }

  /** flush(), then the second still open (the run ends inside it). */
  finish(nowMs: number, loopDelay: LoopDelaySource = noLoopDelay): TimelineLine[] {
    const loopDelayP99Ms = loopDelay();
    const lines = this.closeUntil(this.secondOf(nowMs), loopDelayP99Ms);
    lines.push(this.close(loopDelayP99Ms));
    return lines;
  }

  /** The run stopped starting (a budget, a signal, a stop condition): later seconds have no target. */
  endSchedule(): void {
    this.scheduleEnded = true;
  }

  live(): LiveInterval | null {
    const line = this.recentLines.at(-1);
    if (!line) return null;
    const lines = this.recentLines;
    const total = (f: (l: TimelineLine) => number): number => lines.reduce((a, l) => a + f(l), 0);
    const targets = lines.filter((l) => l.target_rate !== null);
    // Units still in flight count with their wait so far: a request outstanding 20 s shows as ≥ 20 s (wrk2, k6).
    const endMs = this.currentT * 1000 - this.options.wallOriginMs;
    const waits = this.waitsAt(endMs);
    const corrected = IntervalSum.percentileOverMs(this.recentSums, 'corrected_latency_ms', 95, this.options.targetRateAt ? waits : []);
    const oldest = waits.length > 0 ? round3(Math.max(...waits)) : null;
    return {
      line, seconds: lines.length,
      target_rate: this.options.targetRateAt && !this.scheduleEnded && targets.length > 0 ? round3(this.options.targetRateAt(endMs - this.options.runStartMs)) : null,
      achieved_rate: round3(total((l) => l.starts) / lines.length),
      in_flight: line.in_flight,
      p95_ms: corrected ?? IntervalSum.percentileOverMs(this.recentSums, 'latency_ms', 95, waits),
      p95_metric: corrected !== null ? 'corrected_latency_ms' : 'latency_ms',
      ttfc_p95_ms: IntervalSum.percentileOverMs(this.recentSums, 'ttfc_ms', 95),
      errors: total((l) => Object.values(l.errors).reduce((a, n) => a + n, 0)), dropped: total((l) => l.dropped),
      held: this.heldNow, in_flight_oldest_ms: oldest,
    };
  }

  private secondOf(monoMs: number): number {
    return Math.floor((this.options.wallOriginMs + monoMs) / 1000);
  }

  /** An event of a later second closes the seconds before it first (an earlier one counts in the open second). */
  private roll(atMs: number): void {
    const t = this.secondOf(atMs);
    if (t > this.currentT) this.pending.push(...this.closeUntil(t, null));
  }

  /** Lines closed by events between flushes, handed out by the next flush. */
  private pending: TimelineLine[] = [];

  private closeUntil(t: number, loopDelayP99Ms: number | null): TimelineLine[] {
    const lines = this.pending.splice(0);
    // Closed early by an event of the next second: the loop delay measured since is theirs too.
    if (loopDelayP99Ms !== null) for (const line of lines) line.loop_delay_p99_ms ??= round3(loopDelayP99Ms);
    while (this.currentT < t) lines.push(this.close(loopDelayP99Ms));
    return lines;
  }

  private close(loopDelayP99Ms: number | null): TimelineLine {
    const { runStartMs, wallOriginMs, targetRateAt } = this.options;
    const offsetMs = this.currentT * 1000 - wallOriginMs - runStartMs;
    this.current.inFlight = this.inFlight;
    if (this.heldNow !== null) this.current.held = this.heldNow;
    if (this.waiting.size > 0) {
      const endMs = (this.currentT + 1) * 1000 - wallOriginMs;
      let oldest = 0;
      for (const fromMs of this.waiting.values()) oldest = Math.max(oldest, endMs - fromMs);
      this.current.inFlightOldestMs = round3(oldest);
    }
    if (loopDelayP99Ms !== null) this.current.loopDelayP99Ms = round3(loopDelayP99Ms);
    // A second with no answer had no good one: every line of a new file says its goodput.
    this.current.good ??= 0;
    const target = targetRateAt && !this.scheduleEnded ? round3(intendedStarts(targetRateAt, offsetMs)) : null;
    const line = this.current.toLine(this.currentT, offsetMs, target);
    if (this.droppedItems.length > 0) line.dropped_items = this.droppedItems.splice(0);
    this.recentLines.push(line);
    this.recentSums.push(this.current);
    if (this.recentLines.length > this.recentSeconds) {
      this.recentLines.shift();
      this.recentSums.shift();
    }
    this.currentT += 1;
    this.current = new IntervalSum();
    this.current.inFlightMax = this.inFlight;
    return line;
  }
}

/**
 * Starts intended within the second beginning at `offsetMs` (the rate's integral, by tenths): the
 * run's first and last seconds are partly outside it and expect only their share.
 */
function intendedStarts(targetRateAt: (tMs: number) => number, offsetMs: number): number {
  let starts = 0;
  for (let k = 0; k < 10; k++) {
    const t = offsetMs + 50 + 100 * k;
    if (t >= 0) starts += targetRateAt(t) / 10;
  }
  return starts;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
