// How many client event loops (--workers) a run gets, and why fewer than asked when it cannot split.
import { availableParallelism } from 'node:os';
import type { LoadSpec } from '../../domain/load.js';

/** A closed loop below this many in flight is one event loop's work (the default: one worker). */
export const ONE_LOOP_CONCURRENCY = 256;

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
  if (ctx.load.kind === 'sweep') return "a sweep's probes and rates are one schedule";
  if (ctx.load.kind === 'ramping-workers') return '--concurrency-stages ramps one pool of workers';
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
  const closed = ctx.load.kind === 'closed' ? ctx.load.concurrency : null;
  const wanted = asked ?? (closed !== null && closed < ONE_LOOP_CONCURRENCY ? 1 : free);
  if (closed !== null && wanted > closed) return { count: closed, notice: `--workers ${wanted}: ${closed} ran, one per slot of --concurrency ${closed}` };
  // Each worker holds at least one of the in-flight bound's places: more workers would break the bound.
  const inFlight = ctx.load.kind === 'arrivals' ? ctx.load.maxInFlight : null;
  if (inFlight !== null && wanted > inFlight) return { count: inFlight, notice: `--workers ${wanted}: ${inFlight} ran, one per place of --max-in-flight ${inFlight}` };
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
