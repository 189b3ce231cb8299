// The slots of one repeat of a plan: which suite entry (cases first, then threads) on which model.
//
// When every case takes as many slots as the next (no case restricts its models, or they all keep
// the same number), slot = case × width + model is arithmetic: no memory per case beyond the ~1
// byte of CaseModels. Only cases of different widths take 4 bytes more each (their first slot).
// Threads are few and keep small arrays. A million-case suite used to take ~24 bytes per case here
// (entry and model per slot, a model list per entry).
import type { Suite } from '../domain/suite.js';
import { CaseModels } from './case-models.js';
import { label, modelsFor, type RunModels } from './run-models.js';
import type { ModelCounts, PlanCounts } from './types.js';

/** The last i with starts[i] ≤ value: the entry that holds a slot (entries without slots share a start). */
function lastAtOrBelow(starts: ArrayLike<number>, count: number, value: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (starts[mid]! <= value) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

export class Slots {
  /** Slots in one repeat. */
  readonly size: number;
  private readonly caseSlots: number;
  /** Set only when cases take different numbers of slots: case → its first slot (caseCount + 1 entries). */
  private readonly caseFirst: Int32Array | null;
  private readonly threadFirst: number[] = [];
  private readonly threadModels: (string | null)[][] = [];

  private constructor(
    private readonly cases: CaseModels,
    private readonly caseCount: number,
    suite: Suite,
    run: RunModels,
  ) {
    if (cases.width !== null) {
      this.caseFirst = null;
      this.caseSlots = caseCount * cases.width;
    } else {
      this.caseFirst = new Int32Array(caseCount + 1);
      for (let e = 0; e < caseCount; e += 1) this.caseFirst[e + 1] = this.caseFirst[e]! + cases.modelsOf(e).length;
      this.caseSlots = this.caseFirst[caseCount]!;
    }
    let slot = this.caseSlots;
    for (const thread of suite.threads) {
      const models = modelsFor(thread.models, run);
      this.threadFirst.push(slot);
      this.threadModels.push(models);
      slot += models.length;
    }
    this.size = slot;
  }

  /** `onExcluded` hears of each case none of whose models this run uses (see CaseModels.read). */
  static of(suite: Suite, run: RunModels, onExcluded: (id: string, restriction: readonly string[]) => void = () => {}): Slots {
    return new Slots(CaseModels.read(suite, run, onExcluded), suite.cases.length, suite, run);
  }

  /** Entry (cases first, then threads) → its models in slot order. */
  modelsOf(entry: number): readonly (string | null)[] {
    if (entry >= this.caseCount) return this.threadModels[entry - this.caseCount]!;
    return this.cases.modelsOf(entry);
  }

  firstSlot(entry: number): number {
    if (entry >= this.caseCount) return this.threadFirst[entry - this.caseCount]!;
    return this.caseFirst === null ? entry * this.cases.width! : this.caseFirst[entry]!;
  }

  entryAt(slot: number): number {
    if (slot >= this.caseSlots) return this.caseCount + lastAtOrBelow(this.threadFirst, this.threadFirst.length, slot);
    if (this.caseFirst === null) return Math.floor(slot / this.cases.width!);
    return lastAtOrBelow(this.caseFirst, this.caseCount, slot);
  }

  modelAt(slot: number): string | null {
    const entry = this.entryAt(slot);
    return this.modelsOf(entry)[slot - this.firstSlot(entry)]!;
  }

  isCase(slot: number): boolean {
    return slot < this.caseSlots;
  }

  /** Model labels in the order slots first use them. */
  labels(): string[] {
    const seen = new Set<string>();
    for (const models of [...this.cases.usedLists(this.caseCount), ...this.threadModels]) for (const model of models) seen.add(label(model));
    return [...seen];
  }
}

/**
 * What the places of a plan amount to, from the slots alone: no unit is built and no case is read,
 * with the same figures (and per-model key order) as counting the units one by one.
 */
export function countSlots(slots: Slots, suite: Suite, places: Iterable<number>): PlanCounts {
  const counts: PlanCounts = { items: 0, cases: 0, threads: 0, turns: 0, requests: 0, per_model: Object.create(null) as Record<string, ModelCounts> };
  const caseCount = suite.cases.length;
  for (const place of places) {
    const slot = place % slots.size;
    const perModel = (counts.per_model[label(slots.modelAt(slot))] ??= { items: 0, cases: 0, threads: 0, requests: 0 });
    counts.items += 1;
    perModel.items += 1;
    if (slots.isCase(slot)) {
      counts.cases += 1;
      counts.requests += 1;
      perModel.cases += 1;
      perModel.requests += 1;
    } else {
      const turns = suite.threads[slots.entryAt(slot) - caseCount]!.turns.length;
      counts.threads += 1;
      counts.turns += turns;
      counts.requests += turns;
      perModel.threads += 1;
      perModel.requests += turns;
    }
  }
  return counts;
}
