// The one loop skeleton (k6's executor run loop): it asks the executor when the next start is due,
// draws the unit (the one plan walker), holds starts past the in-flight cap, sends the start and
// settled events, stops through the gate, drops what is still held at the end, sets the retry
// deadline and gives units in flight the graceful stop before they are cut.
import type { Sample } from '../../domain/sample.js';
import type { PlanUnit } from '../../plan/types.js';
import { systemClock, type ClockTimer } from '../clock.js';
import type { StartGate } from '../gate.js';
import type { MixOptions } from '../mix.js';
import type { SendDeps } from '../send.js';
import { firstItemOf, intendedAtOf, runUnit, type EventSink, type UnitSource } from '../unit.js';
import type { Loop, LoopControl, LoopState } from './executor.js';
import { onePass, stampStart, startDrawer } from './walker.js';

/**
 * A start held back longer than this past its intended time is given up (dropped, never sent), as
 * k6 drops an iteration no VU can take: it counts as dropped either way (metrics/summarizer.ts), and
 * the held queue stays bounded by a second of the schedule, not the backlog of a stalled service.
 */
export const GIVE_UP_LATE_MS = 1000;

/** k6's default gracefulStop: in-flight units get this long after the schedule ends (or a stop). */
export const DEFAULT_GRACEFUL_STOP_MS = 30_000;

export interface LoopOptions {
  source: UnitSource;
  loop: Loop;
  /** The traffic mix of a time-bound loop (a closed loop walks the plan once, in order). */
  mix?: MixOptions;
  deps: SendDeps;
  gate: StartGate;
  channel: EventSink;
  /** The run's soft stop (a signal, a stop condition, a consumer gone): looked at at once. */
  stop: AbortSignal;
  gracefulStopMs: number;
  /** Aborted when the graceful stop is over: units still in flight are cut, and recorded as interrupted. */
  cut: AbortController;
}

export function runLoop(options: LoopOptions): void {
  const { deps, gate, channel, source } = options;
  const t0 = deps.runStartMs;
  // The run's clock (t0 is on it) and its timers: a test's fake clock moves offsets, stage ages and the schedule.
  const clock = deps.clock ?? systemClock;
  const now = (): number => clock.now();
  const control: LoopControl = {
    push: (event) => channel.push(event),
    setRetryDeadline: (elapsedMs) => {
      deps.backoff.deadlineMs = t0 + elapsedMs;
    },
  };
  const executor = options.loop.executor(control);
  const draw = executor.cycles ? startDrawer(source, options.mix) : null;
  const pass = executor.cycles ? null : onePass(source);
  const held: PlanUnit[] = [];
  let nextIndex = 0;
  let inFlight = 0;
  let settled = 0;
  let nextId = 0;
  let ending = false;
  let failed = false;
  let closed = false;
  let timer: ClockTimer | undefined;
  let timerAtMs = Infinity;
  let graceTimer: ClockTimer | undefined;
  /** Starts given up, counted, and named when the executor names its drops. */
  const dropped = (units: PlanUnit[]): void => {
    channel.push({ type: 'dropped', count: units.length, ...(executor.namesDrops === true ? { items: units.map(firstItemOf) } : {}) });
    executor.dropped?.(units);
  };
  const emit = (sample: Sample): void => channel.push({ type: 'sample', sample });
  let heldReported = 0;
  /** Starts held back by the cap, said when the count changes (the live line shows them). */
  const reportHeld = (): void => {
    if (held.length === heldReported) return;
    heldReported = held.length;
    channel.push({ type: 'held', count: heldReported });
  };

  const close = (error?: unknown): void => {
    if (closed) return;
    closed = true;
    clock.clearTimer(timer);
    clock.clearTimer(graceTimer);
    options.stop.removeEventListener('abort', pump);
    channel.close(error);
  };
  const maybeClose = (): void => {
    if (ending && inFlight === 0) close();
  };
  /** The schedule is over (or stopped): held starts are dropped, counted; units in flight get the graceful stop. */
  const end = (): void => {
    if (ending) return;
    ending = true;
    clock.clearTimer(timer);
    if (held.length > 0) dropped(held.splice(0));
    reportHeld();
    if (executor.timeBound || gate.stopped !== null) {
      graceTimer = clock.setTimer(() => options.cut.abort(), options.gracefulStopMs);
    }
  };
  const launch = (unit: PlanUnit): void => {
    inFlight += 1;
    const id = nextId++;
    channel.push({ type: 'start', id, at_ms: now(), intended_at_ms: intendedAtOf(unit) });
    let last: Sample | null = null;
    const emitUnit = executor.settled === undefined ? emit : (sample: Sample): void => {
      last = sample;
      emit(sample);
    };
    runUnit(unit, deps, gate, emitUnit).then(
      () => {
        inFlight -= 1;
        executor.settled?.(unit, last);
        settled += 1;
        channel.push({ type: 'settled', id });
        pump();
      },
      (error: unknown) => {
        failed = true;
        ending = true;
        close(error);
      },
    );
  };
  const drawUnit = (index: number, intendedAtMs: number | null, own?: PlanUnit): PlanUnit | null => {
    // A unit the executor brought (a traffic record) carries its ids; it is stamped with its instant only.
    if (own) return stampStart(own, 1, intendedAtMs === null ? null : t0 + intendedAtMs);
    if (pass) return pass();
    const drawn = draw!(index);
    return drawn === null ? null : stampStart(drawn.unit, drawn.cycle, intendedAtMs === null ? null : t0 + intendedAtMs);
  };
  const wake = (atMs: number): void => {
    if (timerAtMs <= atMs && timer !== undefined) return;
    clock.clearTimer(timer);
    timerAtMs = atMs;
    timer = clock.setTimer(() => {
      timer = undefined;
      timerAtMs = Infinity;
      pump();
    }, Math.max(0, t0 + atMs - now()));
  };

  function giveUpLate(): void {
    const limitMs = now() - GIVE_UP_LATE_MS;
    let expired = 0;
    while (expired < held.length && (intendedAtOf(held[expired]!) ?? Infinity) < limitMs) expired += 1;
    if (expired === 0) return;
    dropped(held.splice(0, expired));
    // The executor may now have a start for them (a conversation's next turn, no longer behind a dropped one): look again.
    if (executor.dropped !== undefined) wake(now() - t0);
  }

  function pump(): void {
    if (failed || closed) return;
    // Looked at even after the schedule ended: a signal during the graceful stop still makes the run a stopped one.
    if (gate.stopped !== null) end();
    while (!ending) {
      const state: LoopState = { elapsedMs: now() - t0, inFlight: inFlight + held.length, settled, nextIndex };
      const next = executor.next(state);
      if (next.kind === 'done') {
        end();
        break;
      }
      if (next.kind === 'wait') {
        if (next.untilMs !== null) wake(next.untilMs);
        break;
      }
      const index = next.index ?? nextIndex;
      nextIndex = index + 1;
      const unit = drawUnit(index, next.intendedAtMs, next.unit);
      if (unit === null) {
        end(); // the plan is done (a closed loop), or empty
        break;
      }
      held.push(unit);
      // Sent at once while below the cap; past it, held (sent late) until a slot is free.
      while (held.length > 0 && inFlight < executor.maxInFlight()) launch(held.shift()!);
    }
    giveUpLate();
    while (!ending && held.length > 0 && inFlight < executor.maxInFlight()) launch(held.shift()!);
    reportHeld();
    maybeClose();
  }

  options.stop.addEventListener('abort', pump, { once: true });
  pump();
}
