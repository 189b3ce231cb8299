// What a spec means over time, in the runner's terms: the arrival profile of an open loop, the
// workers' profile of a ramping closed loop, and the stage windows run.json records.
import type { LoadSpec, RunLoad } from '../domain/load.js';
import { stageWindows, type LoadProfile } from '../runner/arrivals.js';

/** An open loop's arrival profile; null for every other kind (a sweep's rates are known once its probes end). */
export function arrivalProfileOf(spec: LoadSpec): LoadProfile | null {
  return spec.kind === 'arrivals' ? spec.rate : null;
}

/** --concurrency-stages as a profile whose "rate" is a number of workers (k6 ramping-vus starts from 0). */
export function workersProfileOf(spec: LoadSpec): LoadProfile | null {
  return spec.kind === 'ramping-workers' ? { kind: 'stages', startRatePerS: 0, stages: spec.stages } : null;
}

/**
 * run.json's schedule of an open loop: its stages (a shard of N runs 1/N of every stage's rate, its
 * execution segment; `kbbench merge` adds the shards' rates back up) and its bound on outstanding starts.
 * A `--concurrency-stages` run's stages are its workers' (every shard runs them all, so merge's sum
 * is the workers of the whole run), its bound the peak of them.
 */
export function scheduleOf(spec: LoadSpec, shardCount = 1): RunLoad | null {
  const workers = workersProfileOf(spec);
  if (workers !== null) {
    const stages = stageWindows(workers).map((w) => ({ ...w, target_unit: 'workers' as const }));
    return { stages, max_in_flight: Math.max(1, ...stages.map((s) => s.to_rate)) };
  }
  const profile = arrivalProfileOf(spec);
  if (profile === null || spec.kind !== 'arrivals') return null;
  const share = 1 / shardCount;
  return { stages: stageWindows(profile).map((w) => ({ ...w, from_rate: w.from_rate * share, to_rate: w.to_rate * share })), max_in_flight: spec.maxInFlight };
}
