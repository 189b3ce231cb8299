// The one plan walker: which unit global start k draws (k only grows), stamped with its pass's item
// ids and its intended time. The plan in order (segment.ts), or a shuffled or weighted mix (mix.ts).
import { withCycle } from '../../plan/item-id.js';
import type { PlanRequest, PlanUnit } from '../../plan/types.js';
import { mixedDraws, type IndexedSource, type MixOptions } from '../mix.js';
import { unitsByStart, type DrawnUnit } from '../segment.js';
import type { UnitSource } from '../unit.js';

/** A start: the unit with its pass's item ids (a later pass is its own item), stamped with its intended time. */
export function stampStart(unit: PlanUnit, cycle: number, intendedAtMs: number | null): PlanUnit {
  const stamp = (r: PlanRequest, first: boolean): PlanRequest => ({ ...r, id: cycle > 1 ? withCycle(r.id, cycle) : r.id, intended_at_ms: first ? intendedAtMs : null });
  if (unit.kind === 'case') return { ...unit, request: stamp(unit.request, true) };
  return { ...unit, key: cycle > 1 ? withCycle(unit.key, cycle) : unit.key, turns: unit.turns.map((t, i) => stamp(t, i === 0)) };
}

const isIndexed = (source: UnitSource): source is IndexedSource =>
  typeof (source as Partial<IndexedSource>).unitAt === 'function' && typeof (source as Partial<IndexedSource>).space === 'number';

/**
 * The unit of global start k: plan unit k mod U in pass floor(k / U) + 1, or the k-th draw of a
 * shuffled or weighted mix, so every shard of a seeded mix draws the same global sequence.
 */
export function startDrawer(source: UnitSource, mix?: MixOptions): (k: number) => DrawnUnit | null {
  if (mix === undefined || mix.kind === 'sequential' || !isIndexed(source)) return unitsByStart(source);
  const next = mixedDraws(source, mix);
  let position = 0;
  return (k) => {
    let drawn: DrawnUnit | null = null;
    while (position <= k) {
      drawn = next();
      position += 1;
      if (drawn === null) return null;
    }
    return drawn;
  };
}

/** A closed loop's walk: the plan once, in order (a resume's remaining units are not random access). */
export function onePass(source: UnitSource): () => PlanUnit | null {
  const units = source.units();
  return () => {
    const next = units.next();
    return next.done ? null : next.value;
  };
}
