// The open loop's load profile as the run's flags ask for it (--rate/--duration or --stages), and
// what it plans: starts, and the requests those starts imply (a thread start sends all its turns).
import { parseThresholdFlag } from '../checks/threshold-parser.js';
import { InputError } from '../domain/errors.js';
import { requestsOf } from '../plan/index.js';
import type { Plan, Shard } from '../plan/types.js';
import { segmentRequests, segmentSize } from '../runner/segment.js';
import { plannedStarts, type LoadProfile } from '../runner/arrivals.js';
import type { RunSessionOptions } from './options.js';

/** null for a closed-loop run. */
export function loadProfileOf(options: RunSessionOptions): LoadProfile | null {
  if (options.stages !== undefined) return { kind: 'stages', startRatePerS: options.startRate ?? 0, stages: options.stages };
  if (options.rate !== undefined && options.durationMs !== undefined) return { kind: 'constant', ratePerS: options.rate, durationMs: options.durationMs };
  return null;
}

/** --concurrency-stages as a profile whose "rate" is a number of workers (k6 ramping-vus starts from 0). */
export function concurrencyProfileOf(options: RunSessionOptions): LoadProfile | null {
  return options.concurrencyStages === undefined ? null : { kind: 'stages', startRatePerS: 0, stages: options.concurrencyStages };
}

/** Sweeps are capped: each rate is a stage of the run and keeps a few histograms while reports are built. */
export const MAX_SWEEP_RATES = 100;

/** `--slo` flags as threshold definitions (the threshold grammar; no abort options: an SLO judges, it never stops). */
export function sweepSlos(options: RunSessionOptions): Record<string, string[]> {
  const slos: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const flag of options.slo ?? []) {
    if (flag.includes(';')) throw new InputError(`--slo "${flag}": an SLO judges each rate and never stops the run; abortOnFail belongs to --threshold`, { field: '--slo' });
    let parsed: { key: string; expression: string };
    try {
      parsed = parseThresholdFlag(flag);
    } catch (error) {
      if (error instanceof InputError) {
        const message = error.message.includes('--threshold') ? error.message.replace('--threshold', '--slo') : `--slo "${flag}": ${error.message}`;
        throw new InputError(message, { field: '--slo' });
      }
      throw error;
    }
    (slos[parsed.key] ??= []).push(parsed.expression);
  }
  return { ...slos };
}

function checkSweep(options: RunSessionOptions): void {
  if (options.sweep === undefined) {
    if (options.slo !== undefined) throw new InputError('--slo is judged per rate of a sweep: add --sweep N --duration D (a whole run is judged by --threshold)', { field: '--slo' });
    return;
  }
  const other = options.rate !== undefined ? '--rate' : options.stages !== undefined ? '--stages' : options.concurrencyStages !== undefined ? '--concurrency-stages' : options.startRate !== undefined ? '--start-rate' : null;
  if (other) throw new InputError(`--sweep chooses its own rates (between its two probes); leave out ${other}`, { field: '--sweep' });
  if (options.sweep > MAX_SWEEP_RATES) throw new InputError(`--sweep ${options.sweep}: at most ${MAX_SWEEP_RATES} rates`, { field: '--sweep' });
  if (options.durationMs === undefined) throw new InputError('--sweep needs --duration: how long each rate (and each probe, at most 10s) runs, e.g. --duration 30s', { field: '--sweep' });
  if (options.warmupMs !== undefined) throw new InputError('--sweep warms up with its probes (recorded as warmup); leave out --warmup', { field: '--warmup' });
  if (options.shard !== undefined) throw new InputError('--sweep runs in one process: its rates come from its own probes; leave out --shard', { field: '--shard' });
  if (options.resumeDir !== undefined) throw new InputError('a sweep cannot be resumed (its rates come from probes of that moment): start a new run', { field: '--resume' });
  sweepSlos(options);
}

export function checkLoadProfile(options: RunSessionOptions): void {
  checkSweep(options);
  if (options.concurrencyStages !== undefined && (options.rate !== undefined || options.stages !== undefined)) {
    throw new InputError('--concurrency-stages ramps the closed loop\'s workers; --rate and --stages are an open loop\'s arrivals: give one', { field: '--concurrency-stages' });
  }
  if (options.stages !== undefined && options.rate !== undefined) {
    throw new InputError('--stages and --rate are two arrival rates: give one (a constant rate is one stage, e.g. --stages 1m:20)', { field: '--stages' });
  }
  if (options.stages !== undefined && options.durationMs !== undefined) {
    throw new InputError('--stages carries its own durations; leave out --duration', { field: '--duration' });
  }
  if (options.startRate !== undefined && options.stages === undefined) {
    throw new InputError('--start-rate is where --stages ramps from; it needs --stages', { field: '--start-rate' });
  }
  if (options.arrival !== undefined && options.arrival !== 'constant' && loadProfileOf(options) === null && options.sweep === undefined) {
    throw new InputError('--arrival shapes an open-loop schedule: add --rate and --duration, or --stages', { field: '--arrival' });
  }
  if (options.mix !== undefined && options.mix !== 'sequential' && loadProfileOf(options) === null && options.concurrencyStages === undefined && options.sweep === undefined) {
    throw new InputError('--mix shapes the starts of a time-bound run: add --rate and --duration, --stages, or --concurrency-stages', { field: '--mix' });
  }
  const profile = loadProfileOf(options);
  if (profile?.kind === 'stages' && plannedStarts(profile) < 1) {
    throw new InputError('--stages plans no start at all (every target is 0)', { field: '--stages' });
  }
}

export interface PlannedLoad {
  /** Units started: a case, or a whole thread. */
  starts: number;
  /** The requests those starts send, cycling through the plan in order. */
  requests: number;
}

/**
 * Whole passes through the plan are counted from its totals, the last partial pass by walking its
 * first units, so nothing is materialised. (A shuffled or weighted mix sends the same starts; its
 * requests are then the expected count.)
 */
export function plannedLoad(profile: LoadProfile, plan: Plan, shard?: Shard | null): PlannedLoad {
  const { counts } = plan;
  const total = plannedStarts(profile);
  if (shard) {
    // --shard i/N of an open loop: its segment of the whole run's starts (runner/segment.ts).
    const starts = segmentSize(total, shard);
    return { starts, requests: counts.items === 0 ? 0 : segmentRequests(plan.units(), counts.items, requestsOf, total, shard) };
  }
  const starts = total;
  if (counts.items === 0) return { starts, requests: 0 };
  let requests = Math.floor(starts / counts.items) * counts.requests;
  let rest = starts % counts.items;
  for (const unit of plan.units()) {
    if (rest-- <= 0) break;
    requests += requestsOf(unit);
  }
  return { starts, requests };
}
