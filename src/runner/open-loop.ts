// The open loop (--rate): starts at fixed intervals whatever the service does, so a slow service
// cannot slow the arrivals and hide its own stall (coordinated omission). Latency is also
// reported from the intended start.
import type { Sample } from '../domain/sample.js';
import type { Channel } from './channel.js';
import { monotonicMs, roundMs } from './clock.js';
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

/** The k-th pass over the plan gets its own item ids, so every line stays unique. */
export function unitForStart(units: RunUnit[], k: number): RunUnit {
  const unit = units[k % units.length]!;
  const cycle = Math.floor(k / units.length);
  if (cycle === 0) return unit;
  const rename = (r: RequestSpec): RequestSpec => ({ ...r, item_id: `${r.item_id}|c${cycle + 1}` });
  if (unit.kind === 'case') return { kind: 'case', request: rename(unit.request) };
  return { kind: 'thread', thread: { ...unit.thread, thread_key: `${unit.thread.thread_key}|c${cycle + 1}`, turns: unit.thread.turns.map(rename) } };
}

function corrected(sample: Sample, delayMs: number, first: boolean): Sample {
  // Timers may fire a fraction of a millisecond early; a start is never earlier than its schedule.
  const delay = first ? roundMs(Math.max(0, delayMs)) : 0;
  const corrected_latency_ms = sample.latency_ms === null ? null : roundMs(sample.latency_ms + delay);
  return { ...sample, scheduled_delay_ms: delay, ...(corrected_latency_ms !== null ? { corrected_latency_ms } : {}) };
}

export function runOpenLoop(units: RunUnit[], options: OpenLoopOptions, deps: SendDeps, gate: StartGate, channel: Channel<RunEvent>): void {
  const intervalMs = 1000 / options.ratePerS;
  const totalStarts = units.length === 0 ? 0 : Math.floor((options.ratePerS * options.durationMs) / 1000);
  const t0 = monotonicMs();
  const waiting: { unit: RunUnit; intendedAt: number }[] = [];
  let inFlight = 0;
  let scheduling = totalStarts > 0;
  let failed = false;

  const maybeClose = (): void => {
    if (!scheduling && inFlight === 0 && waiting.length === 0) channel.close();
  };
  const launch = (unit: RunUnit, intendedAt: number): void => {
    inFlight += 1;
    const delayMs = monotonicMs() - intendedAt;
    let first = true;
    const emit = (sample: Sample): void => {
      channel.push({ type: 'sample', sample: corrected(sample, delayMs, first) });
      first = false;
    };
    runUnit(unit, deps, gate, emit).then(
      () => {
        inFlight -= 1;
        pump();
        maybeClose();
      },
      (error: unknown) => {
        failed = true;
        channel.close(error);
      },
    );
  };
  const pump = (): void => {
    while (!failed && inFlight < options.maxInFlight && waiting.length > 0) {
      const next = waiting.shift()!;
      launch(next.unit, next.intendedAt);
    }
  };
  const endSchedule = (): void => {
    scheduling = false;
    if (waiting.length > 0) channel.push({ type: 'dropped', count: waiting.splice(0).length });
    maybeClose();
  };
  const fire = (k: number): void => {
    if (failed) return;
    if (k >= totalStarts || gate.stopped) return endSchedule();
    waiting.push({ unit: unitForStart(units, k), intendedAt: t0 + k * intervalMs });
    pump();
    // Each start is timed from t0, not from the previous timer, so timer lateness does not accumulate.
    setTimeout(() => fire(k + 1), Math.max(0, t0 + (k + 1) * intervalMs - monotonicMs()));
  };
  if (totalStarts === 0) return maybeClose();
  fire(0);
}
