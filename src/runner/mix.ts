// The traffic mix of a time-bound loop: which unit each start draws. Sequential cycles through the
// plan in order; shuffle visits every unit once per pass in a seeded order; weighted draws units in
// proportion to their case's or thread's `weight`. None holds the plan: shuffle permutes places in
// the plan's index space (a Feistel network, walked until it lands inside), weighted draws places
// and keeps each with probability weight / maxWeight (rejection sampling).
import type { PlanUnit } from '../plan/types.js';
import { createRandom } from '../domain/random.js';
import type { UnitSource } from './unit.js';

export type MixKind = 'sequential' | 'shuffle' | 'weighted';
export const MIX_KINDS: readonly MixKind[] = ['sequential', 'shuffle', 'weighted'];

export interface MixOptions {
  kind: MixKind;
  seed: number;
  /** The largest weight in the suite (units without one weigh 1). */
  maxWeight: number;
}

/** A source with random access (a Plan): what shuffle and weighted need. */
export interface IndexedSource extends UnitSource {
  space: number;
  unitAt(index: number): PlanUnit | null;
}

export const weightOf = (unit: PlanUnit): number => unit.weight ?? 1;

/** A seeded permutation of [0, n): a 4-round Feistel network on the next power of four, cycle-walked. */
export function permutation(n: number, seed: number): (i: number) => number {
  let bits = 2;
  while (1 << bits < n) bits += 2;
  const half = bits / 2;
  const mask = (1 << half) - 1;
  const random = createRandom(seed);
  const keys = [0, 1, 2, 3].map(() => Math.floor(random() * 0x7fffffff));
  const round = (x: number, key: number): number => {
    let h = Math.imul(x ^ key, 0x9e3779b1);
    h ^= h >>> 15;
    return Math.imul(h, 0x85ebca6b) & mask;
  };
  const encrypt = (x: number): number => {
    let left = x >>> half;
    let right = x & mask;
    for (const key of keys) [left, right] = [right, left ^ round(right, key)];
    return (left << half) | right;
  };
  return (i) => {
    let x = encrypt(i);
    while (x >= n) x = encrypt(x);
    return x;
  };
}

/**
 * Draws the next unit to start with the pass (sequential, shuffle) or draw (weighted) number that
 * makes its item ids unique; null when the source has nothing to start.
 */
export function mixedDraws(source: IndexedSource, options: MixOptions): () => { unit: PlanUnit; cycle: number } | null {
  const random = createRandom(options.seed);
  if (options.kind === 'weighted') {
    let draws = 0;
    return () => {
      // A plan's units are mostly inside its space; a shard's are 1 in N of it: bounded tries all the same.
      for (let tries = 0; tries < 1_000_000; tries += 1) {
        const unit = source.unitAt(Math.floor(random() * source.space));
        if (unit !== null && random() * options.maxWeight < weightOf(unit)) return { unit, cycle: ++draws };
      }
      return null;
    };
  }
  let pass = 1;
  let place = 0;
  let order = permutation(source.space, options.seed);
  return () => {
    for (let visited = 0; visited <= source.space; visited += 1) {
      if (place >= source.space) {
        pass += 1;
        place = 0;
        order = permutation(source.space, options.seed + pass);
      }
      const unit = source.unitAt(order(place++));
      if (unit !== null) return { unit, cycle: pass };
    }
    return null;
  };
}
