// Reads CSV records one at a time with the file line each starts on, and checks the header row.
import { CsvError, parse } from 'csv-parse/sync';
import { InputError } from '../domain/errors.js';
import { CsvScanner, UnclosedQuote, type RecordDelimiter } from './csv-scan.js';
import { REQUEST_OPTION_KEYS } from './primitives.js';
import { didYouMean, SuiteError } from './suite-error.js';

export interface CsvRecord {
  /** 1-based file line where the record starts (a quoted field may span several lines). */
  line: number;
  cells: string[];
  /** Where cell `index` begins in the file; asked only for an error message (by the slow path). */
  cellAt?: (index: number) => { line: number; column: number };
}

const LF = 0x0a;
const CR = 0x0d;
const LOADER_OPTIONS = { bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true } as const;

/** The bytes records are read from (UTF-8), and the record delimiter the file settled on. */
export interface CsvSource {
  bytes: Buffer;
  delimiter: RecordDelimiter | null;
}

/**
 * The input as UTF-8 and where its first record starts. csv-parse reads a UTF-16LE file (its
 * BOM) as UTF-16; it is turned into UTF-8 here once, so one scanner reads every file.
 */
function utf8Input(input: Uint8Array): { bytes: Buffer; start: number } {
  const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length < 3) return { bytes, start: 0 };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { bytes, start: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { bytes: Buffer.from(bytes.toString('utf16le', 2), 'utf8'), start: 0 };
  return { bytes, start: 0 };
}

/** The 1-based line and column (in characters) of byte `offset` of a UTF-8 file. */
export function positionOf(bytes: Buffer, offset: number, start = 0): { line: number; column: number } {
  let line = 1;
  let lineStart = start;
  for (let i = bytes.indexOf(LF); i !== -1 && i < offset; i = bytes.indexOf(LF, i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: bytes.toString('utf8', lineStart, offset).length + 1 };
}

/** Where cell `index` of the record read from `from` begins, for a message naming its column. */
export function cellPosition(input: Uint8Array, from: number, index: number): { line: number; column: number } {
  const { bytes, start } = utf8Input(input);
  const starts: number[] = [];
  new CsvScanner(bytes, Math.max(from, start)).next(starts);
  return positionOf(bytes, starts[index] ?? starts[starts.length - 1] ?? from, start);
}

function unclosedAt(bytes: Buffer, start: number, quoteAt: number, file: string): SuiteError {
  const { line, column } = positionOf(bytes, quoteAt, start);
  const message = 'CSV syntax: this quote opens a field that is never closed (the file ends inside it); close it with " or double a quote inside the text as ""';
  return new SuiteError([new InputError(message, { file, line, column })]);
}

/**
 * A quoted field still open at the end of the file, named at the line and column where its
 * quote opened (csv-parse names the line where the file ends, far from the mistake).
 */
export function unclosedQuoteError(input: Uint8Array, file: string): SuiteError {
  const { bytes, start } = utf8Input(input);
  const scanner = new CsvScanner(bytes, start);
  try {
    while (scanner.next() !== null);
  } catch (error) {
    if (!(error instanceof UnclosedQuote)) throw error;
    return unclosedAt(bytes, start, error.quoteAt, file);
  }
  return syntaxError(input, file);
}

/** csv-parse's own message for a syntax error; records go nowhere, so memory stays flat. */
function syntaxError(input: Uint8Array, file: string): SuiteError {
  try {
    parse(input, { ...LOADER_OPTIONS, on_record: () => null });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    return new SuiteError([new InputError(`CSV syntax: ${error.message}`, { file, ...(line ? { line } : {}) })]);
  }
  return new SuiteError([new InputError('CSV syntax: a quoted field is not closed', { file })]);
}

/**
 * Visits every record that has some content, in file order, with the 1-based line it starts on
 * and `from`, the offset a CsvScanner restarts at to read it again. Nothing is kept per record.
 *
 * Lines come from byte offsets, as they always have (csv-parse's own count miscounts CRLF inside
 * quoted fields): a record starts where the previous one ended, after any CR and LF bytes.
 */
export function scanCsvRecords(input: Uint8Array, file: string, visit: (record: CsvRecord, from: number) => void): CsvSource {
  const { bytes, start } = utf8Input(input);
  const scanner = new CsvScanner(bytes, start);
  let line = 1;
  // The next LF not yet counted, found by indexOf (native) rather than a loop over every byte.
  let nextLf = bytes.indexOf(LF);
  let previousEnd = 0;
  for (;;) {
    const from = scanner.position;
    let cells: string[] | null;
    try {
      cells = scanner.next();
    } catch (error) {
      if (error instanceof UnclosedQuote) {
        throw unclosedAt(bytes, start, error.quoteAt, file);
      }
      throw error;
    }
    if (cells === null) break;
    let begins = previousEnd;
    while (begins < bytes.length && (bytes[begins] === LF || bytes[begins] === CR)) begins += 1;
    while (nextLf !== -1 && nextLf < begins) {
      line += 1;
      nextLf = bytes.indexOf(LF, nextLf + 1);
    }
    previousEnd = scanner.position;
    if (cells.some((cell) => cell.trim() !== '')) visit({ line, cells }, from);
  }
  return { bytes, delimiter: scanner.delimiter };
}

/** The cells of the record whose reading starts at `from` (an offset scanCsvRecords gave). */
export function readCsvRecordAt(source: CsvSource, from: number): string[] {
  const cells = new CsvScanner(source.bytes, from, source.delimiter).next();
  if (cells === null) throw new Error(`no CSV record at byte ${from}`);
  return cells;
}

export const CSV_COLUMNS = ['id', 'prompt', 'thread', 'turn', 'model', 'tags', 'expected', 'expect_fail', ...REQUEST_OPTION_KEYS] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

export const EXPECTED_COLUMN = /^__expected\d*$/;
/** Notes for people, not the harness: read and ignored. */
const IGNORED_COLUMN = /^(?:description|notes?|comments?|__description|__metadata.*)$/;

export interface CsvHeader {
  /** Normalised column names, by position; null for an ignored (or unnamed) column. */
  columns: (string | null)[];
  /** Positions with an empty header cell: spreadsheets export them; only a value under one is a problem. */
  unnamed: number[];
  line: number;
}

/** `id;prompt` in one cell: a spreadsheet saved with another separator. */
function separatorHint(names: readonly string[]): string {
  const other = [';', '\t', '|'].find((separator) => names.some((name) => name.includes(separator)));
  return other === undefined ? '' : `; the header looks ${other === '\t' ? 'tab' : `"${other}"`}-separated: save the file as comma-separated CSV`;
}

export function readCsvHeader(record: CsvRecord | undefined, file: string): CsvHeader {
  if (record === undefined) throw new SuiteError([new InputError('the CSV file is empty; it needs a header row with id and prompt', { file, line: 1 })]);
  const issues: InputError[] = [];
  const where = { file, line: record.line };
  const names = record.cells.map((cell) => cell.trim().toLowerCase());
  const unnamed = names.flatMap((name, index) => (name === '' ? [index] : []));
  const columns = names.map((name, index) => {
    if (name === '' || IGNORED_COLUMN.test(name)) return null;
    if (names.indexOf(name) !== index) issues.push(new InputError(`column "${name}" appears twice in the header`, { ...where, field: name }));
    if (!(CSV_COLUMNS as readonly string[]).includes(name) && !EXPECTED_COLUMN.test(name)) {
      const hint = didYouMean(name, CSV_COLUMNS);
      issues.push(new InputError(`unknown column "${name}"${hint}; columns: ${CSV_COLUMNS.join(', ')}, __expected, __expected1…`, { ...where, field: name }));
    }
    return name;
  });
  for (const required of ['id', 'prompt']) {
    if (!names.includes(required)) issues.push(new InputError(`the header has no "${required}" column (required)${separatorHint(names)}`, { ...where, field: 'header' }));
  }
  if (issues.length > 0) throw new SuiteError(issues);
  return { columns, unnamed, line: record.line };
}
