// Property: on random small CSV files, the streaming loader and its lazy cases equal the eager
// loader it replaced: the same cases (deep), threads and warnings, or the same problems, word for word.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsvSuite } from './csv.js';
import { SuiteError } from './suite-error.js';
import { parseCsvSuiteEager } from './test-support/eager-csv.js';

const VALUES: Record<string, readonly string[]> = {
  id: ['c1', 'c2', 'c3', 't1', ' c1 ', 'a|b', '', '7', 'c4'],
  prompt: ['Hi', 'How long, in "days"?', '', '  ', 'two\nlines', 'é€', ' padded '],
  thread: ['', '', 't1', 't2', 'c1', ' t1 ', 'x|y'],
  turn: ['', '1', '2', '3', '0', 'x', ' 2 ', '99999999999999999999'],
  model: ['', 'gpt-4o', 'gpt-4o, gpt-9', ' , ', 'gpt-4o-mini'],
  expected: ['', '30 days', '  days '],
  streaming: ['', 'yes', 'No', 'maybe', 'constructor', '1', ' TRUE '],
  method: ['', 'GET', ' post ', 'put'],
  user: ['', ' ana ', 'bob'],
  additional_context: ['', ' ctx ', 'x'],
  __expected: ['', 'contains: 30', 'regex: (x', 'regex: ^a', 'similar(0.8): refunds', 'max-latency-ms: abc', 'max-latency-ms: 50', 'plain', 'judge: ok', 'similar(2): x'],
  __expected2: ['', 'icontains: PRO', 'max-credits: 3', 'equals: x: y'],
  notes: ['', 'a note'],
  '': ['', '', 'stray'],
  bogus: ['', 'x'],
};
const OPTIONAL = Object.keys(VALUES).filter((name) => name !== 'id' && name !== 'prompt');

/** A cell as a spreadsheet might write it: quoted when it must be, sometimes when it need not. */
function written(cell: string, quote: boolean): string {
  return quote || /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

const header = fc
  .tuple(fc.subarray(OPTIONAL, { maxLength: 6 }), fc.boolean(), fc.boolean())
  .chain(([optional, upper, drop]) =>
    fc.shuffledSubarray([...(drop ? ['prompt'] : ['id', 'prompt']), ...optional], { minLength: optional.length + (drop ? 1 : 2) }).map((names) =>
      names.map((name) => (upper && name === 'prompt' ? 'Prompt' : name)),
    ),
  );

function rowOf(names: readonly string[]) {
  return fc.tuple(
    fc.tuple(...names.map((name) => fc.constantFrom(...(VALUES[name.toLowerCase()] ?? ['x'])))),
    fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length }),
    fc.constantFrom('', '', '', ',', ',extra', ',,'),
  ).map(([cells, quotes, tail]) => cells.map((cell, i) => written(cell, quotes[i] ?? false)).join(',') + tail);
}

const csvFile = header.chain((names) =>
  fc
    .tuple(fc.array(fc.oneof(rowOf(names), fc.constantFrom('', '  ')), { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean())
    .map(([rows, end, bom, last]) => Buffer.from(`${bom ? '\uFEFF' : ''}${[names.map((n) => written(n, false)).join(','), ...rows].join(end)}${last ? end : ''}`)),
);

/** Mostly valid files: unique ids, ordinary cells, a thread in any order. */
const cleanFile = fc
  .tuple(fc.integer({ min: 0, max: 12 }), fc.shuffledSubarray([1, 2, 3], { minLength: 3 }), fc.constantFrom('\n', '\r\n'), fc.subarray(['streaming', 'model', '__expected', 'expected', 'user']))
  .map(([cases, turns, end, extra]) => {
    const names = ['id', 'prompt', 'thread', 'turn', ...extra];
    const pick = (name: string, i: number): string => {
      // Left out: cells that are input errors ('plain' is no check: no CSV cell becomes equals unless it says so).
      const pool = (VALUES[name] ?? ['']).filter((v) => !['maybe', 'constructor', 'regex: (x', 'max-latency-ms: abc', 'similar(2): x', 'plain'].includes(v));
      return written(pool[i % pool.length] ?? '', false);
    };
    const rows = Array.from({ length: cases }, (_, i) => [`case${i}`, written(`Question ${i}, please`, false), '', '', ...extra.map((n) => pick(n, i))].join(','));
    for (const turn of turns) rows.splice(turn % (rows.length + 1), 0, [`turn${turn}`, `Turn ${turn}?`, 'thr', String(turn), ...extra.map(() => '')].join(','));
    return Buffer.from([names.join(','), ...rows].join(end) + end);
  });

function load(read: typeof parseCsvSuite, bytes: Buffer) {
  try {
    const suite = read(bytes, 'random.csv');
    const cases = [...suite.cases];
    const byPosition = Array.from({ length: suite.cases.length }, (_, i) => suite.cases.at(i));
    return { cases, byPosition, last: suite.cases.at(-1), threads: suite.threads, warnings: suite.warnings };
  } catch (error) {
    if (!(error instanceof SuiteError)) throw error;
    return { problems: error.issues.map((issue) => issue.describe()) };
  }
}

describe('the streaming CSV loader', () => {
  it('equals the eager loader on random files (cases read lazily, or the same problems)', () => {
    fc.assert(
      fc.property(fc.oneof(csvFile, cleanFile), (bytes) => {
        const lazy = load(parseCsvSuite, bytes);
        expect(lazy).toEqual(load(parseCsvSuiteEager, bytes));
        // The plan skips reading every case for its models only when the list says none has any.
        if (lazy.cases) expect(parseCsvSuite(bytes, 'random.csv').cases.restrictsModels).toBe(lazy.cases.some((c) => c.models !== undefined));
      }),
      { numRuns: 1500 },
    );
  });

  it('loads most clean files, so the lazy path is what the property above compares', () => {
    const samples = fc.sample(cleanFile, 200);
    const loaded = samples.filter((bytes) => !('problems' in load(parseCsvSuite, bytes)));
    expect(loaded.length).toBeGreaterThan(150);
  });
});
