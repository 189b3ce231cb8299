// The open loop (--rate): starts at fixed intervals whatever the service does, so a slow service
// cannot slow the arrivals and hide its own stall (coordinated omission). Latency is also
// reported from the intended start.
import type { Sample } from '../domain/sample.js';
import type { Channel } from './channel.js';
import { monotonicMs } from './clock.js';
import { runUnit, type RunEvent } from './closed-loop.js';
import type { StartGate } from './gate.js';
import type { RequestSpec, RunUnit } from './request-spec.js';
import type { SendDeps } from './send.js';

export interface OpenLoopOptions {
  ratePerS: number;
  durationMs: number;
  /** Outstanding starts beyond this wait (and are sent late); those still waiting at the end are dropped. */
  maxInFlight: number;
}

/** The k-th start: the plan's units in turn, each pass with its own item ids, stamped with its intended time. */
export function unitForStart(units: RunUnit[], k: number, intendedAtMs: number): RunUnit {
  const unit = units[k % units.length]!;
  const cycle = Math.floor(k / units.length);
  const suffix = cycle === 0 ? '' : `|c${cycle + 1}`;
  const stamp = (r: RequestSpec, first: boolean): RequestSpec => ({ ...r, item_id: `${r.item_id}${suffix}`, intended_at_ms: first ? intendedAtMs : null });
  if (unit.kind === 'case') return { kind: 'case', request: stamp(unit.request, true) };
  return {
    kind: 'thread',
    thread: { ...unit.thread, thread_key: `${unit.thread.thread_key}${suffix}`, turns: unit.thread.turns.map((t, i) => stamp(t, i === 0)) },
  };
}

export function runOpenLoop(units: RunUnit[], options: OpenLoopOptions, deps: SendDeps, gate: StartGate, channel: Channel<RunEvent>, stop: AbortSignal): void {
  const intervalMs = 1000 / options.ratePerS;
  const totalStarts = units.length === 0 ? 0 : Math.floor((options.ratePerS * options.durationMs) / 1000);
  const t0 = monotonicMs();
  const waiting: RunUnit[] = [];
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
    while (next < totalStarts && t0 + next * intervalMs <= now) {
      waiting.push(unitForStart(units, next, t0 + next * intervalMs));
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
