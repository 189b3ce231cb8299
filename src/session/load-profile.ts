// What an open loop plans: starts, and the
// requests those starts imply (a thread start sends all its turns).
import { arrivalProfileOf } from '../load/index.js';
import { specOf } from '../config/load-section.js';
import { requestsOf } from '../plan/index.js';
import type { Plan, Shard } from '../plan/types.js';
import { segmentRequests, segmentSize } from '../runner/segment.js';
import { plannedStarts, type LoadProfile } from '../runner/arrivals.js';
import type { RunConfig } from '../config/run-config.js';

export { MAX_SWEEP_RATES } from '../load/index.js';

/** The open loop's arrival profile; null for every other kind. */
export function loadProfileOf(options: Pick<RunConfig, 'load' | 'placement'>): LoadProfile | null {
  return arrivalProfileOf(specOf(options));
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
