// Which models each case of a plan runs on, in about a byte a case: cases share a handful of
// distinct model lists (usually one), so a case keeps the number of its list, not a list.
//
// A Map from case to list cost ~100 bytes a case when every row of a million-row CSV named its
// model; this costs 1 (2 or 4 past 255 or 65,535 distinct lists), and nothing when no case has one.
import type { Suite } from '../domain/suite.js';
import { modelsFor, type RunModels } from './run-models.js';

type ListIds = Uint8Array | Uint16Array | Uint32Array;

function widened(ids: ListIds, count: number): ListIds {
  const wider = ids instanceof Uint8Array ? new Uint16Array(ids.length) : new Uint32Array(ids.length);
  wider.set(ids.subarray(0, count));
  return wider;
}

export class CaseModels {
  /** Distinct model lists in slot order; list 0 is the run's models (a case without restriction). */
  private readonly lists: (string | null)[][];
  /** Case → its list; null when every case uses list 0. */
  private readonly ids: ListIds | null;
  /** How many slots every case takes, or null when cases differ (then each needs its first slot). */
  readonly width: number | null;

  private constructor(lists: (string | null)[][], ids: ListIds | null, width: number | null) {
    this.lists = lists;
    this.ids = ids;
    this.width = width;
  }

  /**
   * Reads each case once for its `models` (a lazy list parses it), unless the list says none has
   * any. `onExcluded` hears of each case left with no model of this run, in case order.
   */
  static read(suite: Suite, run: RunModels, onExcluded: (id: string, restriction: readonly string[]) => void): CaseModels {
    const count = suite.cases.length;
    if (suite.cases.restrictsModels === false) return new CaseModels([run.models], null, run.models.length);
    const lists: (string | null)[][] = [run.models];
    const byKey = new Map<string, number>();
    let ids: ListIds = new Uint8Array(count);
    let restricted = false;
    let e = 0;
    for (const entry of suite.cases) {
      if (entry.models) {
        // The restriction as written is the key: the same words give the same list.
        const key = entry.models.join('\n');
        let id = byKey.get(key);
        if (id === undefined) {
          id = lists.push(modelsFor(entry.models, run)) - 1;
          byKey.set(key, id);
          if (id === 256 || id === 65_536) ids = widened(ids, e);
        }
        ids[e] = id;
        restricted = true;
        if (lists[id]!.length === 0) onExcluded(entry.id, entry.models);
      }
      e += 1;
    }
    if (!restricted) return new CaseModels(lists, null, run.models.length);
    const used = new Set<number>(ids);
    const widths = new Set([...used].map((id) => lists[id]!.length));
    return new CaseModels(lists, ids, widths.size === 1 ? [...widths][0]! : null);
  }

  modelsOf(entry: number): (string | null)[] {
    return this.lists[this.ids === null ? 0 : this.ids[entry]!]!;
  }

  /** Every distinct list a case uses, in the order cases first use them. */
  usedLists(count: number): (string | null)[][] {
    if (this.ids === null) return count > 0 ? [this.lists[0]!] : [];
    const seen = new Set<number>();
    for (let e = 0; e < count; e += 1) seen.add(this.ids[e]!);
    return [...seen].map((id) => this.lists[id]!);
  }
}
