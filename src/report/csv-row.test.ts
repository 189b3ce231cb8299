import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRecord, type CsvCell } from './csv-row.js';

/** csv-stringify as samples.csv configured it before: its defaults, booleans as true/false. */
const library = (rows: CsvCell[][]): string => stringify(rows, { cast: { boolean: (value) => String(value) } });

const cell: fc.Arbitrary<CsvCell> = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\r', '\t', '=', "'", 'é', '✓', '😀', '\\') }),
  fc.string(),
  fc.double({ noNaN: false }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(''),
);

describe('csvRecord', () => {
  it('writes every row byte for byte as csv-stringify does', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(rows.map(csvRecord).join('')).toBe(library(rows));
      }),
      { numRuns: 500 },
    );
  });

  it('quotes a field with a comma, a quote or a line break, and doubles its quotes', () => {
    expect(csvRecord(['a,b', 'say "hi"', 'one\ntwo', 'cr\r', 'plain', 3.5, true, null, undefined, ''])).toBe('"a,b","say ""hi""","one\ntwo","cr\r",plain,3.5,true,,,\n');
  });
});
