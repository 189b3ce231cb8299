// How many client event loops (--workers) a run gets, and why fewer than asked when it cannot split.
import { availableParallelism } from 'node:os';
import type { LoadSpec } from '../../domain/load.js';
import { oneWorkerReason, workerPlacesOf } from '../../load/index.js';

/**
 * Workers per core at most: each is an isolate (tens of MB) and more than a few per core only add
 * switching (--workers 32 took 1.1 GB for 4 requests).
 */
export const WORKERS_PER_CORE = 2;

export interface WorkersContext {
  load: LoadSpec;
  /** The --workers flag; absent: the default. */
  requested?: number;
  /** The service runs on this machine (the embedded reference service, or a --base-url on loopback): it keeps a core. */
  serviceHere: boolean;
  /** A resumed run, or part of a plan (an estimate's sample): the worker would rebuild a different plan. */
  partial: boolean;
  budget: boolean;
  /** --reuse-answers: one index hands out each stored answer once. */
  reuse?: boolean;
  /** Cores of the machine (os.availableParallelism()). */
  cores?: number;
}

export interface WorkersChoice {
  count: number;
  /** Said to the user when the run uses fewer workers than --workers asked for. */
  notice?: string;
}

/** Why this run keeps one event loop, or null when it can split into workers. */
function oneLoopReason(ctx: WorkersContext): string | null {
  const kind = oneWorkerReason(ctx.load);
  if (kind !== null) return kind;
  if (ctx.budget) return 'a credit budget (--max-credits, --min-remaining) is kept by one ledger';
  if (ctx.reuse === true) return 'answers reused from earlier runs (--reuse-answers) are handed out by one index';
  if (ctx.partial) return 'a resumed run (or an estimate\'s sample) sends part of a plan';
  return null;
}

/**
 * Default: one worker for a closed loop under 256 in flight, else the cores free beside the service
 * when it runs on this machine (k6 uses every core); never more workers than a closed loop has
 * slots. A service on loopback counts like the embedded one: on a 2-core machine a second worker
 * beside it only added CPU (bench/workers.mjs, streams: docs/load-testing.md).
 */
export function chooseWorkers(ctx: WorkersContext): WorkersChoice {
  const reason = oneLoopReason(ctx);
  const asked = ctx.requested;
  if (reason !== null) return asked !== undefined && asked > 1 ? { count: 1, notice: `--workers ${asked}: one worker ran, for ${reason}` } : { count: 1 };
  const cores = ctx.cores ?? availableParallelism();
  const free = Math.max(1, cores - (ctx.serviceHere ? 1 : 0));
  // Each worker holds at least one of the bound's places (a closed loop's slots, an open loop's cap): more workers would break it.
  const places = workerPlacesOf(ctx.load);
  const wanted = asked ?? (places?.oneLoopBelow !== undefined && places.count < places.oneLoopBelow ? 1 : free);
  if (places !== null && wanted > places.count) return { count: places.count, notice: `--workers ${wanted}: ${places.count} ran, one per ${places.word} of ${places.flag} ${places.count}` };
  const most = cores * WORKERS_PER_CORE;
  if (wanted > most) return { count: most, notice: `--workers ${wanted}: ${most} ran, at most ${WORKERS_PER_CORE} per core (${cores} cores)` };
  return { count: wanted };
}

/** A base URL on this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
