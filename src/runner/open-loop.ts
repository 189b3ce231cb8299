// The open loop (--rate): starts at fixed intervals whatever the service does, so a slow service
// cannot slow the arrivals and hide its own stall (coordinated omission). Latency is also
// reported from the intended start.
import type { Sample } from '../domain/sample.js';
import type { Channel } from './channel.js';
import { monotonicMs } from './clock.js';
import { withCycle } from '../plan/item-id.js';
import type { PlanRequest, PlanUnit } from '../plan/types.js';
import type { StartGate } from './gate.js';
import type { SendDeps } from './send.js';
import { intendedAtOf, runUnit, type RunEvent, type UnitSource } from './unit.js';

export interface OpenLoopOptions {
  ratePerS: number;
  durationMs: number;
  /** Outstanding starts beyond this wait (and are sent late); those still waiting at the end are dropped. */
  maxInFlight: number;
}

/** A start: the unit with its pass's item ids (a later pass is its own item), stamped with its intended time. */
export function stampStart(unit: PlanUnit, cycle: number, intendedAtMs: number): PlanUnit {
  const stamp = (r: PlanRequest, first: boolean): PlanRequest => ({ ...r, id: cycle > 1 ? withCycle(r.id, cycle) : r.id, intended_at_ms: first ? intendedAtMs : null });
  if (unit.kind === 'case') return { ...unit, request: stamp(unit.request, true) };
  return { ...unit, key: cycle > 1 ? withCycle(unit.key, cycle) : unit.key, turns: unit.turns.map((t, i) => stamp(t, i === 0)) };
}

/** The plan's units in turn, pass after pass, drawn one start at a time (never materialised). */
export function cyclingStarts(source: UnitSource): (intendedAtMs: number) => PlanUnit | null {
  let units = source.units();
  let cycle = 1;
  return (intendedAtMs) => {
    let next = units.next();
    if (next.done) {
      units = source.units();
      cycle += 1;
      next = units.next();
      if (next.done) return null;
    }
    return stampStart(next.value, cycle, intendedAtMs);
  };
}

export function runOpenLoop(source: UnitSource, options: OpenLoopOptions, deps: SendDeps, gate: StartGate, channel: Channel<RunEvent>, stop: AbortSignal): void {
  const intervalMs = 1000 / options.ratePerS;
  const draw = cyclingStarts(source);
  let totalStarts = Math.floor((options.ratePerS * options.durationMs) / 1000);
  const t0 = monotonicMs();
  const waiting: PlanUnit[] = [];
  let next = 0;
  let inFlight = 0;
  let scheduling = true;
  let failed = false;
  let timer: NodeJS.Timeout | undefined;

  const emit = (sample: Sample): void => channel.push({ type: 'sample', sample });
  const maybeClose = (): void => {
    if (!scheduling && inFlight === 0 && waiting.length === 0) channel.close();
  };
  const drop = (): void => {
    if (waiting.length > 0) channel.push({ type: 'dropped', count: waiting.splice(0).length });
  };
  const pump = (): void => {
    if (gate.stopped) {
      // Starts that can no longer be sent are counted, not lost; the schedule ends now, not a tick later.
      drop();
      endSchedule();
    }
    while (!failed && inFlight < options.maxInFlight && waiting.length > 0) {
      inFlight += 1;
      const unit = waiting.shift()!;
      channel.push({ type: 'start', at_ms: monotonicMs(), intended_at_ms: intendedAtOf(unit) });
      runUnit(unit, deps, gate, emit).then(
        () => {
          inFlight -= 1;
          channel.push({ type: 'settled' });
          pump();
          maybeClose();
        },
        (error: unknown) => {
          failed = true;
          endSchedule();
          channel.close(error);
        },
      );
    }
  };
  function endSchedule(): void {
    if (!scheduling) return;
    scheduling = false;
    clearTimeout(timer);
    stop.removeEventListener('abort', endSchedule);
    drop();
    maybeClose();
  }
  // Every start whose time has come is queued at once, so a late timer never makes the loop fall
  // behind; the next timer is set from t0, so timer lateness does not accumulate either.
  const tick = (): void => {
    if (failed || gate.stopped) return endSchedule();
    const now = monotonicMs();
    while (next < totalStarts && t0 + next * intervalMs <= now) {
      const unit = draw(t0 + next * intervalMs);
      if (unit === null) {
        totalStarts = next; // an empty plan: nothing to start
        break;
      }
      waiting.push(unit);
      next += 1;
    }
    pump();
    const endAt = t0 + options.durationMs;
    if (next >= totalStarts || now >= endAt) {
      timer = setTimeout(endSchedule, Math.max(0, endAt - now));
      return;
    }
    timer = setTimeout(tick, Math.max(0, t0 + next * intervalMs - now));
  };
  stop.addEventListener('abort', endSchedule, { once: true });
  if (totalStarts === 0) return endSchedule();
  tick();
}
