// The hand scanner against csv-parse itself: same records, same ends, same refusals, on random bytes.
import { CsvError, parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvScanner, UnclosedQuote } from './csv-scan.js';

const OPTIONS = { bom: true, info: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true } as const;

type Scan = { records: string[][]; ends: number[] } | 'unclosed';

function byCsvParse(bytes: Buffer): Scan {
  try {
    const parsed = parse(bytes, OPTIONS) as unknown as { record: string[]; info: { bytes: number } }[];
    return { records: parsed.map((entry) => entry.record), ends: parsed.map((entry) => entry.info.bytes) };
  } catch (error) {
    if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') return 'unclosed';
    throw error;
  }
}

function byScanner(bytes: Buffer): Scan & { starts?: number[]; scanner?: CsvScanner } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const scanner = new CsvScanner(bytes, bom ? 3 : 0);
  const records: string[][] = [];
  const ends: number[] = [];
  const starts: number[] = [];
  try {
    for (;;) {
      starts.push(scanner.position);
      const cells = scanner.next();
      if (cells === null) break;
      records.push(cells);
      ends.push(scanner.position);
    }
  } catch (error) {
    if (error instanceof UnclosedQuote) return 'unclosed';
    throw error;
  }
  return { records, ends, starts, scanner };
}

// Every byte that matters to the rules, plus a multi-byte character and a NUL (it closes a quote).
const piece = fc.constantFrom('a', 'b', ',', '"', '""', '\r', '\n', '\r\n', ' ', 'é', '€', '\0');
const input = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 40 })).map(([bom, pieces]) => Buffer.from(`${bom ? '\uFEFF' : ''}${pieces.join('')}`));

describe('CsvScanner', () => {
  it('reads random input exactly as csv-parse does (cells, record ends, unclosed quotes)', () => {
    fc.assert(
      fc.property(input, (bytes) => {
        const expected = byCsvParse(bytes);
        const { starts: _starts, scanner: _scanner, ...actual } = byScanner(bytes) as Exclude<Scan, 'unclosed'> & { starts?: number[]; scanner?: CsvScanner };
        expect(typeof expected === 'string' ? expected : actual).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads any record after the first again from where its reading started', () => {
    fc.assert(
      fc.property(input, (bytes) => {
        const scan = byScanner(bytes);
        if (scan === 'unclosed' || scan.scanner === undefined) return;
        scan.records.forEach((cells, i) => {
          if (i === 0) return; // the delimiter is known once the first record has ended
          expect(new CsvScanner(bytes, scan.starts![i], scan.scanner!.delimiter).next()).toEqual(cells);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps quoted commas, escaped quotes, CRLF inside quotes, and a relaxed stray quote', () => {
    const bytes = Buffer.from('id,prompt\r\na,"x, ""y""\r\nz"\r\nb,say "hi" now\r\n\r\nc,"q"w\r\n');
    const scan = byScanner(bytes);
    expect(scan === 'unclosed' ? scan : scan.records).toEqual([
      ['id', 'prompt'],
      ['a', 'x, "y"\r\nz'],
      ['b', 'say "hi" now'],
      ['c', '"q"w'],
    ]);
    expect(scan === 'unclosed' ? undefined : scan.scanner?.delimiter).toBe('crlf');
  });

  it('decodes a field once, so a character split by an escaped quote is whole again', () => {
    const bytes = Buffer.concat([Buffer.from('"'), Buffer.from([0xe2, 0x82]), Buffer.from('""'), Buffer.from([0xac]), Buffer.from('"\n')]);
    const expected = byCsvParse(bytes);
    const actual = byScanner(bytes);
    expect(actual === 'unclosed' ? actual : actual.records).toEqual(expected === 'unclosed' ? expected : expected.records);
  });
});
