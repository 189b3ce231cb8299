// Duplicate ids by hashes: the same findings as a Map over every id, hash collisions included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdHashes, idHash, type IdRow } from './csv-ids.js';
import { findDuplicateIds } from './semantic.js';

function findingsOf(rows: IdRow[], threadIds: Set<string> = new Set()) {
  const hashes = new IdHashes(2);
  for (const row of rows) hashes.add(row.id);
  const reads: number[] = [];
  const findings = hashes.findings(threadIds, (k) => {
    reads.push(k);
    return rows[k]!;
  });
  return { ...findings, reads };
}

/** Two different ids with one hash, found by a birthday search (a few tens of thousands of tries). */
function collidingPair(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i += 1) {
    const id = `id-${i}`;
    const other = seen.get(idHash(id));
    if (other !== undefined) return [other, id];
    seen.set(idHash(id), id);
  }
}

describe('IdHashes', () => {
  it('finds every later occurrence of an id with its first, as a Map over all ids does', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'é', ''), { maxLength: 30 }), (ids) => {
        const rows = ids.map((id, line) => ({ id, line: line + 2 }));
        expect(findingsOf(rows).duplicates).toEqual(findDuplicateIds(rows.map((row) => ({ id: row.id, ref: row }))));
      }),
    );
  });

  it('reads again only rows whose hash repeats, and does not take a hash collision for a duplicate', () => {
    const [a, b] = collidingPair();
    expect(a).not.toBe(b);
    const rows = [{ id: 'x', line: 2 }, { id: a, line: 3 }, { id: 'y', line: 4 }, { id: b, line: 5 }];
    const { duplicates, reads } = findingsOf(rows);
    expect(duplicates).toEqual([]);
    expect(reads).toEqual([1, 3]);
  });

  it('names the line of the last case whose id a thread also uses; thread rows do not count', () => {
    const rows: IdRow[] = [{ id: 't', line: 2 }, { id: 'u', line: 3, thread: 't' }, { id: 't2', line: 4 }, { id: 't', line: 5 }];
    const { caseLinesOfThreads, duplicates } = findingsOf(rows, new Set(['t', 'nobody']));
    expect([...caseLinesOfThreads]).toEqual([['t', 5]]);
    expect(duplicates.map((d) => [d.id, d.first.line, d.duplicate.line])).toEqual([['t', 2, 5]]);
  });

  it('grows past its first guess', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: `c${i % 60}`, line: i + 2 }));
    expect(findingsOf(rows).duplicates).toHaveLength(40);
  });
});
