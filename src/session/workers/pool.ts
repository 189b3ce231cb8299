// --workers N: N client event loops in worker threads, each running its share of the load
// (share.ts), their events joined here into the one stream a single-process run yields, so the
// main thread writes the one run directory (results, timeline, summary, reports) as it always does.
import type { RequestOptions } from '../../domain/suite.js';
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { CreditLedger } from '../../credits/ledger.js';
import { fromUnits } from '../../credits/units.js';
import { Channel } from '../../runner/channel.js';
import type { PlanUnit } from '../../plan/types.js';
import { monotonicMs, type RunEvent, type RunHandle, type StopReason, type UnitSource } from '../../runner/index.js';
import type { PreparedRun } from '../prepare.js';
import type { ResolvedTarget } from '../target.js';
import { releaseYoungGeneration } from '../young-generation.js';
import { WorkerError, type FromWorker, type ToWorker, type WorkerInit, type WorkerPlan } from './messages.js';
import { everyNthUnit } from './share.js';
import { isTimeBound } from '../../load/index.js';

export const WORKER_ENTRY = new URL('./worker-entry.js', import.meta.url);

interface WorkerState {
  worker: Worker;
  name: string;
  held: number;
  spentUnits: number;
  ended: boolean;
}

/** Worker threads started on a run and preparing it: started together at one t0 once `ready`. */
export interface WorkerPool {
  readonly count: number;
  /** Resolves when every worker has taken its units (or one has failed: `start` then reports it; or the run was stopped). */
  readonly ready: Promise<void>;
  /** Starts the loops now (after `ready`): a handle like startRun's. */
  start(signals: { stop: AbortSignal; abort: AbortSignal }): RunHandle;
  /** Ends every thread (after the run, or when it never started). */
  close(): void;
}

/**
 * Starts `count` worker threads on the run; each prepares its plan and waits for `start`. They are
 * spawned before a run waits for its start instant, so their start-up does not move t0. A failure
 * of any worker (while preparing, running, or an exit before its end) closes the events with a
 * WorkerError naming it, and the others are cancelled: it is reported like any failure of a run.
 */
export function spawnWorkers(
  prepared: WorkerSource, target: ResolvedTarget, counts: { previousUnits: number; maxWeight: number; suiteDefaults?: RequestOptions; stop?: AbortSignal }, count: number, entry: URL = WORKER_ENTRY,
): WorkerPool {
  const ledger = new CreditLedger();
  const states: WorkerState[] = [];
  let failed = false;
  let stopped = false;
  const send = (message: ToWorker): void => {
    for (const s of states) if (!s.ended) s.worker.postMessage(message);
  };
  const channel = new Channel<RunEvent>();
  let readyCount = 0;
  let allReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (allReady = resolve));
  // The wait for the workers is interruptible: a stop ends it, and `start` then tells them to stop before `go`.
  if (counts.stop?.aborted) allReady();
  else counts.stop?.addEventListener('abort', () => allReady(), { once: true });
  const fail = (error: Error): void => {
    if (failed) return;
    failed = true;
    allReady(); // nothing more to wait for: the run has failed
    send({ type: 'cancel' });
    channel.close(error);
    for (const s of states) void s.worker.terminate();
  };
  channel.onAbandon = () => send({ type: 'cancel' });

  const onEvents = (state: WorkerState, index: number, events: RunEvent[]): void => {
    for (const event of events) {
      if (event.type === 'start' || event.type === 'settled') channel.push({ ...event, id: event.id * count + index });
      else if (event.type === 'held') {
        state.held = event.count;
        channel.push({ type: 'held', count: states.reduce((sum, s) => sum + s.held, 0) });
      } else if (event.type === 'stopped') {
        // One stop for the run: the first worker's reason, and every other worker stops starting too.
        if (stopped) continue;
        stopped = true;
        channel.push(event);
        send({ type: 'halt', reason: event.reason, detail: event.detail });
      } else channel.push(event);
    }
  };
  const onMessage = (state: WorkerState, index: number, message: FromWorker): void => {
    if (failed) return;
    if (message.type === 'ready') {
      readyCount += 1;
      if (readyCount === count) allReady();
      return;
    }
    if (message.type === 'failed') {
      fail(new WorkerError(state.name, message.error));
      return;
    }
    // Each answer is in one worker's ledger; the run's spend is their sum.
    const delta = message.spentUnits - state.spentUnits;
    state.spentUnits = message.spentUnits;
    if (delta !== 0) ledger.recordExtra('workers', fromUnits(delta));
    if (message.type === 'events') onEvents(state, index, message.events);
    else {
      state.ended = true;
      void state.worker.terminate();
      if (states.every((s) => s.ended)) channel.close();
    }
  };

  // The young generation's cap is a process-wide flag: the workers' isolates must grow theirs.
  releaseYoungGeneration();
  const plans = workerPlans(prepared, count);
  for (let index = 0; index < count; index += 1) {
    const init: WorkerInit = {
      index, count, ...plans(index),
      target: { baseUrl: target.baseUrl, apiKey: target.apiKey, boardId: target.boardId, chatId: target.chatId, embedded: target.embedded },
      previousUnits: counts.previousUnits, maxWeight: counts.maxWeight, ...(counts.suiteDefaults ? { suiteDefaults: counts.suiteDefaults } : {}),
    };
    const state: WorkerState = { worker: new Worker(entry, { workerData: init }), name: `worker ${index + 1} of ${count}`, held: 0, spentUnits: 0, ended: false };
    states.push(state);
    state.worker.on('message', (message: FromWorker) => onMessage(state, index, message));
    // An uncaught error is said before the messages the worker sent ahead of it are read; 'exit'
    // comes after them (Node drains the port first), so the run fails there, with what was sent recorded.
    let uncaught: WorkerError | null = null;
    state.worker.on('error', (error) => {
      uncaught ??= new WorkerError(state.name, { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) });
    });
    state.worker.on('exit', (code) => {
      if (!state.ended) fail(uncaught ?? new WorkerError(state.name, { name: 'Error', message: `the thread exited (code ${code}) before its loop ended` }));
    });
  }
  const start = (signals: { stop: AbortSignal; abort: AbortSignal }): RunHandle => {
    const runStartMs = monotonicMs();
    const onStop = (): void => send({ type: 'stop' });
    const onAbort = (): void => send({ type: 'abort' });
    // A stop that came before the start (a signal during --start-at's wait) reaches the workers
    // before `go` (messages arrive in order): no worker starts a request, as one loop starts none.
    if (signals.stop.aborted) onStop();
    else signals.stop.addEventListener('abort', onStop, { once: true });
    if (signals.abort.aborted) onAbort();
    else signals.abort.addEventListener('abort', onAbort, { once: true });
    if (!failed) send({ type: 'go', runStartMs, timeOrigin: performance.timeOrigin });
    return {
      events: channel,
      ledger,
      // A resumed run has one loop (workers/count.ts): the workers' clock starts at 0.
      runStartMs,
      openedAtMs: runStartMs,
      cancel: () => send({ type: 'cancel' }),
      halt: (by: StopReason, detail: string) => send({ type: 'halt', reason: by, detail }),
    };
  };
  const close = (): void => {
    for (const s of states) {
      s.ended = true; // an exit asked for is no failure
      void s.worker.terminate();
    }
  };
  return { count, ready, start, close };
}

/** What the workers are given: the run the main thread prepared (its plan walked here, never read again from a file). */
export type WorkerSource = Pick<PreparedRun, 'options' | 'load' | 'plan' | 'grader' | 'knowledge'>;

/**
 * Each worker's plan as data: a closed loop walks the plan once, so worker w gets every count-th
 * unit from its w-th; a time-bound loop draws by its segment's starts from the whole plan.
 */
function workerPlans(prepared: WorkerSource, count: number): (index: number) => WorkerPlan {
  const common = {
    options: prepared.options,
    ...(prepared.grader ? { grader: prepared.grader } : {}),
    ...(prepared.knowledge ? { knowledge: { files: prepared.knowledge.files, texts: prepared.knowledge.texts } } : {}),
  };
  if (!isTimeBound(prepared.load)) return (index) => ({ ...common, units: [...iterate(everyNthUnit(prepared.plan, index, count))] });
  const units = [...iterate(prepared.plan)];
  return () => ({ ...common, units });
}

function* iterate(source: UnitSource): Generator<PlanUnit> {
  const units = source.units();
  for (let next = units.next(); !next.done; next = units.next()) yield next.value;
}

/** Spawns the workers, waits until they are ready and starts them: one call, for a run that has no instant to wait for. */
export async function startWorkers(
  prepared: WorkerSource, target: ResolvedTarget, counts: { previousUnits: number; maxWeight: number }, count: number,
  signals: { stop: AbortSignal; abort: AbortSignal }, entry: URL = WORKER_ENTRY,
): Promise<RunHandle> {
  const pool = spawnWorkers(prepared, target, counts, count, entry);
  await pool.ready;
  return pool.start(signals);
}
