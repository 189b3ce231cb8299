// The runner's entry: run units under one load shape (loop/) and yield what happens, never printing.
import { setMaxListeners } from 'node:events';
import { BudgetGuard, type BudgetLimits } from '../credits/budget.js';
import { CreditLedger } from '../credits/ledger.js';
import type { ChatClient } from '../domain/client.js';
import type { AnswerReuse } from '../domain/answer-reuse.js';
import { DEFAULT_BACKOFF, retryingClient, type BackoffPolicy } from '../client/retry.js';
import { Channel, type EventStream } from './channel.js';
import { systemClock, type Clock } from './clock.js';
import { StartGate, type StopReason } from './gate.js';
import type { MixOptions } from './mix.js';
import { closedLoop } from './loop/closed.js';
import type { Loop } from './loop/executor.js';
import { DEFAULT_GRACEFUL_STOP_MS, runLoop } from './loop/skeleton.js';
import { ModelRefusals, type CheckFn, type SendDeps } from './send.js';
import type { RunEvent, UnitSource } from './unit.js';

export interface RunnerOptions {
  client: ChatClient;
  target: { boardId: string; chatId: string };
  /** Closed loop: units in flight at once. */
  concurrency: number;
  /** The load, made by its kind's module (src/load/kinds/); absent: a closed loop of `concurrency`. */
  load?: Loop;
  /** The traffic mix of a time-bound loop (open loop, concurrency stages, sweep). */
  mix?: MixOptions;
  timeoutMs: number;
  retries: number;
  backoff?: Partial<BackoffPolicy>;
  budget?: BudgetLimits;
  check: CheckFn;
  /** Soft stop: no new request starts; requests in flight get the graceful stop. */
  stop: AbortSignal;
  /**
   * Hard stop (a second signal): no new request starts, and requests in flight are cancelled at
   * once down to the socket, recorded as `interrupted` (the graceful stop cut short).
   */
  abort: AbortSignal;
  /** k6's --graceful-stop: how long in-flight requests get once the schedule ends or a stop comes, before they are cut (recorded `interrupted`). */
  gracefulStopMs?: number;
  /** The ledger to add to (a resumed run starts from what it had spent). */
  ledger?: CreditLedger;
  /** The run's t0 (monotonic ms), when set by whoever starts several loops at one instant (--workers). */
  runStartMs?: number;
  /**
   * What the run's clock reads at its start (ms; default 0): a resumed replay goes on at the log's
   * instant where it stopped, so its offsets, intended starts and stages are on the log's clock.
   */
  clockStartMs?: number;
  /** --reuse-answers: earlier runs' answers, taken instead of sending (runner/reuse.ts). */
  reuse?: AnswerReuse;
  /** Offsets, think times, retry waits and the loop's timers (default the system's monotonic clock and setTimeout; a test passes a fake one). */
  clock?: Clock;
}

export interface RunHandle {
  /** Iterate it for the events one by one, or take each turn's as a batch (`events.batches()`). */
  events: EventStream<RunEvent>;
  ledger: CreditLedger;
  /** The run's t0 (monotonic ms): offsets count from it. */
  runStartMs: number;
  /** When the run began (monotonic ms): runStartMs, unless its clock went on from an earlier t0 (`clockStartMs`). */
  openedAtMs: number;
  /** Stops the run at once: no new requests, those in flight cancelled. */
  cancel(): void;
  /** A clean stop (a stop condition met): no new request starts, those in flight get the graceful stop. */
  halt(by: StopReason, detail: string): void;
}

/** Runs the units of `source` (a Plan, or what a resume left of one), drawing each when it can start. */
export function startRun(source: UnitSource, options: RunnerOptions): RunHandle {
  // The run stops itself (no new starts, requests cancelled) when a unit fails unexpectedly or the
  // consumer walks away: nothing may go on sending requests whose results nobody records.
  const cancel = new AbortController();
  const haltSignal = new AbortController();
  const cut = new AbortController();
  const stop = AbortSignal.any([options.stop, options.abort, cancel.signal, haltSignal.signal]);
  // Only the run's own cancel (results can no longer be written, nobody reads them) leaves requests
  // unrecorded; a second signal cuts the graceful stop short, and what it cancels is recorded as
  // interrupted (the service may have charged it).
  const hardAbort = cancel.signal;
  const signalCut = options.abort;
  if (signalCut.aborted) cut.abort();
  else signalCut.addEventListener('abort', () => cut.abort(), { once: true });
  const abort = AbortSignal.any([hardAbort, cut.signal]);
  // Waits (budget, backoff, judges) listen to the run's signals; hundreds at once is the design, not a leak.
  // (The client's requests share one listener per signal: see client/request-guard.ts.)
  setMaxListeners(0, options.stop, options.abort, stop, abort, hardAbort, cut.signal);
  const ledger = options.ledger ?? new CreditLedger();
  const clock = options.clock ?? systemClock;
  const openedAtMs = options.runStartMs ?? clock.now();
  const runStartMs = openedAtMs - (options.clockStartMs ?? 0);
  const channel = new Channel<RunEvent>(() => cancel.abort());
  channel.onAbandon = () => cancel.abort();
  // The policy the client's retry layer reads; the loop sets its deadline on this same object.
  const backoff: BackoffPolicy = { ...DEFAULT_BACKOFF, ...options.backoff, retries: options.retries };
  const deps: SendDeps = {
    client: retryingClient(options.client, backoff, clock),
    target: options.target,
    timeoutMs: options.timeoutMs,
    backoff,
    check: options.check,
    ledger,
    runStartMs,
    clock,
    abort,
    hardAbort,
    cut: cut.signal,
    signalCut,
    gracefulStopMs: options.gracefulStopMs ?? DEFAULT_GRACEFUL_STOP_MS,
    refusedModels: new ModelRefusals(),
    ...(options.reuse ? { reuse: options.reuse } : {}),
  };
  const guard = new BudgetGuard(options.budget ?? {}, ledger);
  const gate = new StartGate(guard, stop, (reason, detail) => channel.push({ type: 'stopped', reason, detail }));
  runLoop({
    source, loop: options.load ?? closedLoop(options.concurrency), deps, gate, channel, stop, cut,
    // Only a loop that cycles the plan draws by the mix (skeleton.ts): a closed loop walks it once, in order.
    ...(options.mix ? { mix: options.mix } : {}),
    gracefulStopMs: options.gracefulStopMs ?? DEFAULT_GRACEFUL_STOP_MS,
  });
  // The loop ends its schedule when it next looks at the gate; this wakes it now.
  const halt = (by: StopReason, detail: string): void => {
    gate.halt(by, detail);
    haltSignal.abort();
  };
  return { events: channel, ledger, runStartMs, openedAtMs, cancel: () => cancel.abort(), halt };
}
