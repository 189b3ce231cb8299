// A worker's share of the run (--workers): a worker is an in-process shard (runner/segment.ts).
import type { Shard } from '../../plan/types.js';
import type { LoopSpec, UnitSource } from '../../runner/index.js';

/** Worker `index` of `count`'s part of `total` (concurrency, an in-flight cap): split as evenly as it goes. */
export function shareOf(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
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

/** A closed loop's walk for worker w of W: every W-th unit of the plan, from its w-th (the plan is walked, never kept). */
export function everyNthUnit(source: UnitSource, index: number, count: number): UnitSource {
  return {
    *units() {
      const units = source.units();
      let position = 0;
      for (let next = units.next(); !next.done; next = units.next()) {
        if (position % count === index) yield next.value;
        position += 1;
      }
    },
  };
}

/**
 * The worker's loop: its share of a closed loop's concurrency, or its segment of an arrival
 * schedule. The shares add up to the run's bound exactly: count.ts never gives a run more workers
 * than its bound has places, so a share below 1 (which would break the bound) is refused here.
 */
export function workerLoop(load: LoopSpec, index: number, count: number): LoopSpec {
  if (count === 1) return load;
  if (load.kind === 'closed') return { ...load, concurrency: atLeastOne(shareOf(load.concurrency, index, count), '--concurrency') };
  if (load.kind === 'arrivals') return { ...load, segment: workerSegment(load.segment ?? null, index, count), maxInFlight: atLeastOne(shareOf(load.maxInFlight, index, count), '--max-in-flight') };
  // Other kinds run in one worker (count.ts): their schedule is not split.
  return load;
}

function atLeastOne(share: number, bound: string): number {
  if (share < 1) throw new Error(`more workers than ${bound} has places: each worker needs one (workers/count.ts caps them)`);
  return share;
}
