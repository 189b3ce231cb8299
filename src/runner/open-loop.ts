// The open loop (--rate): starts at fixed intervals whatever the service does, so a slow service
// cannot slow the arrivals and hide its own stall (coordinated omission). Latency is also
// reported from the intended start.
import type { Sample } from '../domain/sample.js';
import { monotonicMs } from './clock.js';
import { withCycle } from '../plan/item-id.js';
import type { PlanRequest, PlanUnit, Shard } from '../plan/types.js';
import type { StartGate } from './gate.js';
import { segmentSchedule, unitsByStart, type DrawnUnit } from './segment.js';
import type { SendDeps } from './send.js';
import type { ScheduledStart } from './arrivals.js';
import { mixedDraws, type IndexedSource, type MixOptions } from './mix.js';
import { intendedAtOf, runUnit, type EventSink, type UnitSource } from './unit.js';

export interface OpenLoopOptions {
  /** Intended start offsets from t0, in order (arrivals.ts); drawn one at a time, never materialised. */
  schedule: Iterator<ScheduledStart>;
  /** When the schedule ends: starts still waiting then are dropped. */
  durationMs: number;
  /** Which unit each start draws (default: the plan in order). */
  mix?: MixOptions;
  /** Outstanding starts beyond this wait (and are sent late); those still waiting at the end are dropped. */
  maxInFlight: number;
  /** `--shard i/N`: run only this segment of the whole run's starts (see segment.ts). */
  segment?: Shard | null;
}

/** A start: the unit with its pass's item ids (a later pass is its own item), stamped with its intended time. */
export function stampStart(unit: PlanUnit, cycle: number, intendedAtMs: number | null): PlanUnit {
  const stamp = (r: PlanRequest, first: boolean): PlanRequest => ({ ...r, id: cycle > 1 ? withCycle(r.id, cycle) : r.id, intended_at_ms: first ? intendedAtMs : null });
  if (unit.kind === 'case') return { ...unit, request: stamp(unit.request, true) };
  return { ...unit, key: cycle > 1 ? withCycle(unit.key, cycle) : unit.key, turns: unit.turns.map((t, i) => stamp(t, i === 0)) };
}

/**
 * The plan's units in turn, pass after pass, drawn one start at a time (never materialised); or
 * in a shuffled or weighted mix (mix.ts) when asked and the source has random access (a Plan).
 */
export function cyclingStarts(source: UnitSource, mix?: MixOptions): (intendedAtMs: number | null) => PlanUnit | null {
  if (mix !== undefined && mix.kind !== 'sequential' && isIndexed(source)) {
    const next = mixedDraws(source, mix);
    return (intendedAtMs) => {
      const drawn = next();
      return drawn === null ? null : stampStart(drawn.unit, drawn.cycle, intendedAtMs);
    };
  }
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

const isIndexed = (source: UnitSource): source is IndexedSource =>
  typeof (source as Partial<IndexedSource>).unitAt === 'function' && typeof (source as Partial<IndexedSource>).space === 'number';

/**
 * The unit of global start k (k only grows): the plan in order (segment.ts), or the k-th draw of a
 * shuffled or weighted mix, so every shard of a seeded mix draws the same global sequence.
 */
export function startDrawer(source: UnitSource, mix?: MixOptions): (k: number) => DrawnUnit | null {
  if (mix === undefined || mix.kind === 'sequential' || !isIndexed(source)) return unitsByStart(source);
  const next = mixedDraws(source, mix);
  let position = 0;
  return (k) => {
    let drawn: DrawnUnit | null = null;
    while (position <= k) {
      drawn = next();
      position += 1;
      if (drawn === null) return null;
    }
    return drawn;
  };
}

export function runOpenLoop(source: UnitSource, options: OpenLoopOptions, deps: SendDeps, gate: StartGate, channel: EventSink, stop: AbortSignal): void {
  const starts = segmentSchedule(options.schedule, options.segment ?? null);
  const draw = startDrawer(source, options.mix);
  const t0 = monotonicMs();
  const waiting: PlanUnit[] = [];
  let next = starts.next();
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
    while (!next.done && t0 + next.value.atMs <= now) {
      const drawn = draw(next.value.index);
      if (drawn === null) {
        next = { done: true, value: undefined }; // an empty plan: nothing to start
        break;
      }
      waiting.push(stampStart(drawn.unit, drawn.cycle, t0 + next.value.atMs));
      next = starts.next();
    }
    pump();
    const endAt = t0 + options.durationMs;
    if (next.done || now >= endAt) {
      timer = setTimeout(endSchedule, Math.max(0, endAt - now));
      return;
    }
    timer = setTimeout(tick, Math.max(0, t0 + next.value.atMs - now));
  };
  stop.addEventListener('abort', endSchedule, { once: true });
  if (next.done) return endSchedule();
  tick();
}
