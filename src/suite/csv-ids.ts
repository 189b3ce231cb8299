// Finds repeated ids among a CSV suite's rows in ~8 bytes a row: 32-bit hashes, sorted, and only
// the rows whose hash repeats are read again to compare their ids for real.
//
// A Map of a million ids costs 60+ bytes a row (the strings and the table). Hashes keep 4 bytes
// a row in file order and 4 more in a sorted copy while the check runs. Two different ids share a
// hash about N²/2³³ times (~100 rows in a million), so the second look reads a handful of rows.
import { findDuplicateIds } from './semantic.js';

/** FNV-1a over the UTF-16 code units: cheap, and spreads short similar ids (`c1`, `c2`…) well. */
export function idHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A placed row's id and line, as read again when its hash is shared. */
export interface IdRow {
  id: string;
  line: number;
  /** Set on thread rows: the thread the row belongs to. */
  thread?: string;
}

export interface IdFindings {
  duplicates: { id: string; first: IdRow; duplicate: IdRow }[];
  /** Thread id → line of the (last) case whose id it also is: the order the eager loader reported. */
  caseLinesOfThreads: Map<string, number>;
}

export class IdHashes {
  private hashes: Uint32Array;
  private count = 0;

  constructor(expected: number) {
    this.hashes = new Uint32Array(Math.max(16, expected));
  }

  /** Rows are added in file order; the k-th added is row k for `read`. */
  add(id: string): void {
    if (this.count === this.hashes.length) {
      const grown = new Uint32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[this.count] = idHash(id);
    this.count += 1;
  }

  get size(): number {
    return this.count;
  }

  /**
   * Repeated ids (every later occurrence with the first, in file order), and which thread ids are
   * also case ids. `read(k)` gives row k again; it is called only for rows whose hash repeats or
   * equals a thread id's hash.
   */
  findings(threadIds: ReadonlySet<string>, read: (row: number) => IdRow): IdFindings {
    const hashes = this.hashes.subarray(0, this.count);
    const sorted = Uint32Array.from(hashes).sort();
    const shared = new Set<number>();
    for (let i = 1; i < sorted.length; i += 1) if (sorted[i] === sorted[i - 1]) shared.add(sorted[i]!);
    const threadHashes = new Set([...threadIds].map(idHash));
    const candidates: { id: string; ref: IdRow }[] = [];
    const caseLinesOfThreads = new Map<string, number>();
    for (let k = 0; k < hashes.length; k += 1) {
      const hash = hashes[k]!;
      const repeats = shared.has(hash);
      if (!repeats && !threadHashes.has(hash)) continue;
      const row = read(k);
      if (repeats) candidates.push({ id: row.id, ref: row });
      // A later case with the id replaces an earlier one, as the eager loader's Map did.
      if (row.thread === undefined && threadIds.has(row.id)) caseLinesOfThreads.set(row.id, row.line);
    }
    // Every occurrence of a repeated id is a candidate, in file order: the same pairs as over all rows.
    return { duplicates: findDuplicateIds(candidates), caseLinesOfThreads };
  }
}
