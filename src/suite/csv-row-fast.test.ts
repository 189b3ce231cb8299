// The hand-read row against zod's: equal whenever the fast path answers, and it answers for ordinary rows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsvHeader } from './csv-records.js';
import { readCsvRowFast, rowShape } from './csv-row-fast.js';
import { readCsvRow } from './csv-row.js';

const NAMES = ['id', 'prompt', 'thread', 'turn', 'model', 'method', 'streaming', 'plaintext', 'include_usage', 'additional_context', 'save_history', 'user', 'source', 'expected', '__expected', '__expected3', ''];
const header = readCsvHeader({ line: 1, cells: NAMES }, 'rows.csv');
const shape = rowShape(header);

/** Per column: values zod accepts, then the odd ones it words a problem for (or reads oddly). */
const POOLS: Record<string, [string[], string[]]> = {
  id: [['c1', ' c2 ', '7'], ['a|b', 'a\tb', '', ' ']],
  prompt: [['Hi', ' padded ', 'two\nlines'], ['', ' ']],
  thread: [['', '', 't1', ' t2 '], ['x|y']],
  turn: [['', '', '1', ' 3 '], ['0', '1.5', '99999999999999999999', 'x']],
  model: [['', 'gpt-4o', 'gpt-4o, gpt-9', ' , '], []],
  method: [['', 'GET', ' post '], ['put']],
  boolean: [['', 'yes', 'No', ' TRUE ', '0'], ['maybe', 'constructor', 'toString']],
  additional_context: [['', ' ctx ', 'x'], []],
  text: [['', ' ana ', 'x'], []],
  expected: [['', '30 days', '  days '], []],
  __expected: [['', 'contains: 30', 'similar(0.8): refunds', 'max-latency-ms: 5', 'judge: ok', 'plain text', 'equals: x: y'], ['regex: (x', 'similar: x', 'max-credits: -1']],
  '': [['', ''], ['stray']],
};
const KIND: Record<string, string> = { plaintext: 'boolean', streaming: 'boolean', include_usage: 'boolean', save_history: 'boolean', user: 'text', source: 'text', __expected3: '__expected' };
function cellOf(name: string) {
  const [valid, odd] = POOLS[KIND[name] ?? name]!;
  return odd.length === 0 ? fc.constantFrom(...valid) : fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 19 }, { arbitrary: fc.constantFrom(...odd), weight: 1 });
}
const row = fc
  .tuple(fc.tuple(...NAMES.map(cellOf)), fc.constantFrom([], [], [], [''], ['x'], [' ']))
  .map(([cells, tail]) => [...cells, ...tail]);

describe('readCsvRowFast', () => {
  it('builds exactly the row zod builds, and only for rows zod finds valid', () => {
    let answered = 0;
    fc.assert(
      fc.property(row, (cells) => {
        const fast = readCsvRowFast(shape, cells, 7, 'rows.csv');
        if (fast === undefined) return;
        answered += 1;
        const slow = readCsvRow(header, { line: 7, cells }, 'rows.csv');
        expect(slow.issues).toEqual([]);
        expect(fast).toEqual(slow.row);
      }),
      { numRuns: 20_000 },
    );
    expect(answered).toBeGreaterThan(500); // enough valid rows that the comparison means something
  });

  it('answers for an ordinary row', () => {
    const cells = ['c1', 'Hi', '', '', 'gpt-4o', 'get', 'yes', '', '', 'ctx', 'no', ' ana ', '', '30 days', 'icontains: pro', '', ''];
    expect(readCsvRowFast(shape, cells, 2, 'rows.csv')).toEqual(readCsvRow(header, { line: 2, cells }, 'rows.csv').row);
  });

  it('steps aside for what only zod may word: a bad cell, a stray value, a prototype key as a boolean', () => {
    const base = ['c1', 'Hi', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''];
    const withCell = (index: number, value: string) => base.map((cell, i) => (i === index ? value : cell));
    expect(readCsvRowFast(shape, base, 2, 'rows.csv')).toBeDefined();
    expect(readCsvRowFast(shape, withCell(6, 'constructor'), 2, 'rows.csv')).toBeUndefined();
    expect(readCsvRowFast(shape, withCell(14, 'regex: (x'), 2, 'rows.csv')).toBeUndefined();
    expect(readCsvRowFast(shape, withCell(16, 'stray'), 2, 'rows.csv')).toBeUndefined();
    expect(readCsvRowFast(shape, [...base, 'extra'], 2, 'rows.csv')).toBeUndefined();
  });

  it('shares a repeated promptfoo check between rows, frozen', () => {
    const cells = ['c1', 'Hi', '', '', '', '', '', '', '', '', '', '', '', '', 'similar(0.8): refunds', '', ''];
    const first = readCsvRowFast(shape, cells, 2, 'rows.csv')!.assert[0]!;
    const second = readCsvRowFast(shape, cells, 3, 'rows.csv')!.assert[0]!;
    expect(first.value).toBe(second.value);
    expect(Object.isFrozen(first.value)).toBe(true);
    expect(first.location).toEqual({ file: 'rows.csv', line: 2 });
  });
});
