// One worker thread of a --workers run: it is given the units the main thread read and checked (it
// opens no file of the suite), runs its share of the load (share.ts) in its own event loop, and posts its events to the main thread once
// per event-loop turn; the main thread writes the one run directory (pool.ts).
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from '../../client/index.js';
import { toUnits } from '../../credits/units.js';
import { knowledgeOf, makeGrader } from '../../graders/index.js';
import { startRun, type RunEvent, type RunHandle } from '../../runner/index.js';
import { runnerOptionsOf } from '../drive.js';
import type { ResolvedTarget } from '../target.js';
import { failureOf, type FromWorker, type ToWorker, type WorkerInit } from './messages.js';
import { workerLoop } from './share.js';

const init = workerData as WorkerInit;
const port = parentPort!;
const post = (message: FromWorker): void => port.postMessage(message);

const stop = new AbortController();
const abort = new AbortController();
let handle: RunHandle | null = null;
let spentUnits = (): number => 0;
let batch: RunEvent[] = [];
/** One message per event-loop turn: a message per event cost more than the events themselves. */
const flush = (): void => {
  const events = batch;
  batch = [];
  if (events.length > 0) post({ type: 'events', events, spentUnits: spentUnits() });
};
let go: ((message: Extract<ToWorker, { type: 'go' }>) => void) | null = null;
const started = new Promise<Extract<ToWorker, { type: 'go' }>>((resolve) => (go = resolve));

port.on('message', (message: ToWorker) => {
  if (message.type === 'go') go?.(message);
  else if (message.type === 'stop') stop.abort();
  else if (message.type === 'abort') abort.abort();
  else if (message.type === 'cancel') handle?.cancel();
  else handle?.halt(message.reason, message.detail);
});

async function main(): Promise<void> {
  const options = init.options;
  const target: ResolvedTarget = { ...init.target, stop: () => Promise.resolve() };
  const client = createClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, auth: options.target.auth, ...(options.target.apiKeyHeader ? { apiKeyHeader: options.target.apiKeyHeader } : {}), ...(options.target.dialect ? { dialect: options.target.dialect } : {}) });
  try {
    const grader = init.grader
      ? makeGrader(init.grader, { client, boardId: target.boardId, timeoutMs: options.request.timeoutMs, ...(options.grader.apiKey ? { apiKey: options.grader.apiKey } : {}) })
      : undefined;
    const grading = { ...(grader ? { grader } : {}), ...(init.knowledge ? { knowledge: knowledgeOf(init.knowledge.files, init.knowledge.texts) } : {}) };
    const runner = runnerOptionsOf(options, client, target, init, grading, { stop: stop.signal, abort: abort.signal });
    const load = workerLoop(runner.load!, init.index, init.count);
    // The main thread chose this worker's units (pool.ts): a closed loop's every count-th, a time-bound loop's whole plan.
    const units = init.units;
    const source = { units: () => units[Symbol.iterator]() };
    post({ type: 'ready', timeOrigin: performance.timeOrigin });
    const start = await started;
    // Both clocks are monotonic from their own origin: this thread's time t is the main thread's t + shift.
    const shiftMs = performance.timeOrigin - start.timeOrigin;
    handle = startRun(source, { ...runner, load, runStartMs: start.runStartMs - shiftMs });
    const ledger = handle.ledger;
    spentUnits = () => toUnits(ledger.spent);
    for await (const event of handle.events) {
      if (batch.length === 0) setImmediate(flush);
      batch.push(event.type === 'start' ? { ...event, at_ms: event.at_ms + shiftMs, intended_at_ms: event.intended_at_ms === null ? null : event.intended_at_ms + shiftMs } : event);
    }
    flush();
    post({ type: 'end', spentUnits: toUnits(ledger.spent) });
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  flush(); // what happened before the failure is recorded, as a single-process run records it
  post({ type: 'failed', error: failureOf(error) });
});
