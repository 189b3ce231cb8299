// `--shard i/N` of an open loop: this process's segment of the whole run's arrivals (k6's execution
// segments). The whole schedule is one list of global starts k = 0, 1, 2…; shard i takes every start
// with k mod N = i - 1, so N equal segments interleave exactly (none bursts: a shard's starts are N
// global intervals apart) and their union is the whole schedule. Start k draws plan unit k mod U
// (U units in the plan) in pass floor(k / U) + 1, so the shards' union also sends the same item ids
// as one unsharded run of the same plan.
import type { PlanUnit, Shard } from '../plan/types.js';
import type { UnitSource } from './unit.js';
import type { ScheduledStart } from './arrivals.js';

/** The starts of one segment of an arrival schedule (arrivals.ts): those whose global index is its own. */
export function* segmentSchedule(schedule: Iterator<ScheduledStart>, segment: Shard | null): Generator<ScheduledStart> {
  const count = segment?.count ?? 1;
  const mine = (segment?.index ?? 1) - 1;
  for (let next = schedule.next(); !next.done; next = schedule.next()) if (next.value.index % count === mine) yield next.value;
}

/** How many starts of `total` global ones a segment holds: ⌈(total − (i − 1)) / N⌉. */
export function segmentSize(total: number, segment: Shard | null): number {
  if (segment === null) return total;
  return Math.max(0, Math.ceil((total - (segment.index - 1)) / segment.count));
}

/** Worker `index` of `count`'s part of `total` (concurrency, an in-flight cap): split as evenly as it goes. */
export function shareOf(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

/**
 * A worker's share of a bound on units in flight (`bound` names its flag). The shares add up to the
 * run's bound exactly: workers/count.ts never gives a run more workers than its bound has places,
 * so a share below 1 (which would break the bound) is refused here.
 */
export function workerShare(total: number, index: number, count: number, bound: string): number {
  const share = shareOf(total, index, count);
  if (share < 1) throw new Error(`more workers than ${bound} has places: each worker needs one (workers/count.ts caps them)`);
  return share;
}

/**
 * Worker w of W's segment within the run's own (a --shard i/N's, else the whole schedule): global
 * start k is its when k mod (N·W) = (i − 1) + N·w. The W segments partition the shard's starts
 * exactly (each residue of k mod N·W that is i − 1 mod N is one worker's), so the workers' union
 * is the single-process run's schedule, interleaved start by start.
 */
export function workerSegment(shard: Shard | null, index: number, count: number): Shard {
  const n = shard?.count ?? 1;
  const mine = (shard?.index ?? 1) - 1;
  return { index: mine + n * index + 1, count: n * count };
}

export interface DrawnUnit {
  unit: PlanUnit;
  /** 1-based pass through the plan: a later pass is its own item (`|c<cycle>` in its ids). */
  cycle: number;
}

/**
 * Draws the unit of global start k (k only grows): plan unit k mod U in pass floor(k / U) + 1, walking
 * the plan's iterator (units between two of a segment's starts are skipped, never kept), so memory
 * stays what one unit takes. Null when the plan has no unit at all.
 */
export function unitsByStart(source: UnitSource): (k: number) => DrawnUnit | null {
  let units = source.units();
  let cycle = 1;
  let position = 0; // global index of the unit `units` yields next
  let empty = false;
  const nextUnit = (): PlanUnit | null => {
    let next = units.next();
    if (next.done) {
      units = source.units();
      cycle += 1;
      next = units.next();
      if (next.done) {
        empty = true;
        return null;
      }
    }
    position += 1;
    return next.value;
  };
  return (k) => {
    if (empty || k < position) return null;
    let unit = nextUnit();
    while (unit !== null && position <= k) unit = nextUnit();
    return unit === null ? null : { unit, cycle };
  };
}

/**
 * Requests a segment means to send: the requests of plan unit k mod U summed over the segment's
 * starts k < total. Walks the plan once and, per unit, its passes: arithmetic, no unit kept.
 */
export function segmentRequests(units: Iterable<PlanUnit>, unitCount: number, requestsOf: (unit: PlanUnit) => number, total: number, segment: Shard | null): number {
  const count = segment?.count ?? 1;
  const mine = (segment?.index ?? 1) - 1;
  let sum = 0;
  let p = 0;
  for (const unit of units) {
    if (p >= total) break;
    let hits = 0;
    for (let k = p; k < total; k += unitCount) if (k % count === mine) hits += 1;
    sum += hits * requestsOf(unit);
    p += 1;
  }
  return sum;
}
