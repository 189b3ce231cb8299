// A worker's share of the run (--workers): a worker is an in-process shard (runner/segment.ts).
import type { Loop, UnitSource } from '../../runner/index.js';

export { shareOf, workerSegment } from '../../runner/segment.js';

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

/** The worker's loop: its kind's share of the run (load/kinds/), or the whole loop when the kind does not split. */
export function workerLoop(load: Loop, index: number, count: number): Loop {
  if (count === 1 || load.share === undefined) return load;
  return load.share(index, count);
}
