// The runner's entry: run units in a closed or open loop and yield what happens, never printing.
import { setMaxListeners } from 'node:events';
import { BudgetGuard, type BudgetLimits } from '../credits/budget.js';
import { CreditLedger } from '../credits/ledger.js';
import type { ChatClient } from '../domain/client.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
import { Channel } from './channel.js';
import { monotonicMs } from './clock.js';
import { runClosedLoop } from './closed-loop.js';
import { StartGate, type AbortBy } from './gate.js';
import type { LoadProfile } from './arrivals.js';
import { runRampingWorkers } from './ramping-workers.js';
import { runSweep, type SweepOptions } from './sweep.js';
import type { MixOptions } from './mix.js';
import { runOpenLoop, type OpenLoopOptions } from './open-loop.js';
import { ModelRefusals, type CheckFn, type SendDeps } from './send.js';
import type { RunEvent, UnitSource } from './unit.js';

export interface RunnerOptions {
  client: ChatClient;
  target: { boardId: string; chatId: string };
  /** Closed loop: units in flight at once. */
  concurrency: number;
  /** Open loop instead, when set. */
  open?: OpenLoopOptions;
  /** A sweep instead (two closed-loop probes, then N constant rates as one open loop), when set. */
  sweep?: SweepOptions;
  /** Closed loop whose worker count follows these stages (k6 ramping-vus), cycling through the plan until they end. */
  concurrencyStages?: LoadProfile;
  /** The traffic mix of a time-bound loop (open loop, concurrency stages). */
  mix?: MixOptions;
  timeoutMs: number;
  retries: number;
  backoff?: Partial<BackoffPolicy>;
  budget?: BudgetLimits;
  check: CheckFn;
  /** Soft stop: no new request starts; requests in flight finish. */
  stop: AbortSignal;
  /** Hard stop: requests in flight are cancelled down to the socket and not recorded. */
  abort: AbortSignal;
  /** The ledger to add to (a resumed run starts from what it had spent). */
  ledger?: CreditLedger;
}

export interface RunHandle {
  events: AsyncIterable<RunEvent>;
  ledger: CreditLedger;
  runStartMs: number;
  /** Stops the run at once: no new requests, those in flight cancelled. */
  cancel(): void;
  /** A clean stop (a stop condition met): no new request starts, those in flight finish. */
  halt(by: AbortBy, detail: string): void;
}

/** Runs the units of `source` (a Plan, or what a resume left of one), drawing each when it can start. */
export function startRun(source: UnitSource, options: RunnerOptions): RunHandle {
  // The run stops itself (no new starts, requests cancelled) when a unit fails unexpectedly or the
  // consumer walks away: nothing may go on sending requests whose results nobody records.
  const cancel = new AbortController();
  const haltSignal = new AbortController();
  const stop = AbortSignal.any([options.stop, cancel.signal, haltSignal.signal]);
  const abort = AbortSignal.any([options.abort, cancel.signal]);
  // Waits (budget, backoff, judges) listen to the run's signals; hundreds at once is the design, not a leak.
  // (The client's requests share one listener per signal: see client/request-guard.ts.)
  setMaxListeners(0, options.stop, options.abort, stop, abort);
  const ledger = options.ledger ?? new CreditLedger();
  const runStartMs = monotonicMs();
  const channel = new Channel<RunEvent>(() => cancel.abort());
  channel.onAbandon = () => cancel.abort();
  const deps: SendDeps = {
    client: options.client,
    target: options.target,
    timeoutMs: options.timeoutMs,
    backoff: {
      ...DEFAULT_BACKOFF, ...options.backoff, retries: options.retries,
      // An open loop ends at its duration: no retry waits past it.
      ...(options.open ? { deadlineMs: runStartMs + options.open.durationMs } : {}),
    },
    check: options.check,
    ledger,
    runStartMs,
    abort,
    refusedModels: new ModelRefusals(),
  };
  const guard = new BudgetGuard(options.budget ?? {}, ledger);
  const gate = new StartGate(guard, stop, (reason, detail) => channel.push({ type: 'stopped', reason, detail }));
  if (options.open) runOpenLoop(source, options.mix ? { mix: options.mix, ...options.open } : options.open, deps, gate, channel, stop);
  else if (options.sweep) runSweep(source, options.sweep, deps, gate, channel, stop, options.mix);
  else if (options.concurrencyStages) runRampingWorkers(source, options.concurrencyStages, deps, gate, channel, options.mix);
  else runClosedLoop(source, options.concurrency, deps, gate, channel);
  // The open loop ends its schedule when it next looks at the gate; this wakes it now.
  const halt = (by: AbortBy, detail: string): void => {
    gate.halt(by, detail);
    haltSignal.abort();
  };
  return { events: channel, ledger, runStartMs, cancel: () => cancel.abort(), halt };
}
