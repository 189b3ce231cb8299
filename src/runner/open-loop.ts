// The open loop (--rate): starts at fixed intervals whatever the service does, so a slow service
// cannot slow the arrivals and hide its own stall (coordinated omission). Latency is also
// reported from the intended start.
import type { Sample } from '../domain/sample.js';
import type { Channel } from './channel.js';
import { monotonicMs } from './clock.js';
import { withCycle } from '../plan/item-id.js';
import type { PlanRequest, PlanUnit, Shard } from '../plan/types.js';
import type { StartGate } from './gate.js';
import { constantOffsets, segmentStarts, unitsByStart } from './segment.js';
import type { SendDeps } from './send.js';
import { runUnit, type RunEvent, type UnitSource } from './unit.js';

export interface OpenLoopOptions {
  ratePerS: number;
  durationMs: number;
  /** Outstanding starts beyond this wait (and are sent late); those still waiting at the end are dropped. */
  maxInFlight: number;
  /** `--shard i/N`: run only this segment of the whole run's starts (see segment.ts). */
  segment?: Shard | null;
}

/** A start: the unit with its pass's item ids (a later pass is its own item), stamped with its intended time. */
export function stampStart(unit: PlanUnit, cycle: number, intendedAtMs: number): PlanUnit {
  const stamp = (r: PlanRequest, first: boolean): PlanRequest => ({ ...r, id: cycle > 1 ? withCycle(r.id, cycle) : r.id, intended_at_ms: first ? intendedAtMs : null });
  if (unit.kind === 'case') return { ...unit, request: stamp(unit.request, true) };
  return { ...unit, key: cycle > 1 ? withCycle(unit.key, cycle) : unit.key, turns: unit.turns.map((t, i) => stamp(t, i === 0)) };
}

export function runOpenLoop(source: UnitSource, options: OpenLoopOptions, deps: SendDeps, gate: StartGate, channel: Channel<RunEvent>, stop: AbortSignal): void {
  const starts = segmentStarts(constantOffsets(options.ratePerS, options.durationMs), options.segment ?? null);
  const draw = unitsByStart(source);
  let due = starts.next();
  const t0 = monotonicMs();
  const waiting: PlanUnit[] = [];
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
      runUnit(waiting.shift()!, deps, gate, emit).then(
        () => {
          inFlight -= 1;
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
    while (!due.done && t0 + due.value.offsetMs <= now) {
      const drawn = draw(due.value.k);
      if (drawn === null) {
        due = { done: true, value: undefined }; // an empty plan: nothing to start
        break;
      }
      waiting.push(stampStart(drawn.unit, drawn.cycle, t0 + due.value.offsetMs));
      due = starts.next();
    }
    pump();
    const endAt = t0 + options.durationMs;
    if (due.done || now >= endAt) {
      timer = setTimeout(endSchedule, Math.max(0, endAt - now));
      return;
    }
    timer = setTimeout(tick, Math.max(0, t0 + due.value.offsetMs - now));
  };
  stop.addEventListener('abort', endSchedule, { once: true });
  if (due.done) return endSchedule();
  tick();
}
