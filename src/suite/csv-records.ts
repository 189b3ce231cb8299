// Reads CSV records with the file line each starts on, and checks the header row.
import { CsvError, parse } from 'csv-parse/sync';
import { InputError } from '../domain/errors.js';
import { REQUEST_OPTION_KEYS } from './primitives.js';
import { didYouMean, SuiteError } from './suite-error.js';

export interface CsvRecord {
  /** 1-based file line where the record starts (a quoted field may span several lines). */
  line: number;
  cells: string[];
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * csv-parse's own `info.lines` miscounts CRLF inside quoted fields, so lines are derived from
 * byte offsets instead: a record starts where the previous one ended (`info.bytes`, which
 * includes the BOM and the record delimiter), after any skipped empty lines.
 */
function startLines(bytes: Uint8Array, ends: readonly number[]): number[] {
  const lines: number[] = [];
  let cursor = 0;
  let line = 1;
  let start = 0;
  for (const end of ends) {
    while (start < bytes.length && (bytes[start] === LF || bytes[start] === CR)) start += 1;
    for (; cursor < start; cursor += 1) if (bytes[cursor] === LF) line += 1;
    lines.push(line);
    start = end;
  }
  return lines;
}

export function readCsvRecords(bytes: Uint8Array, file: string): CsvRecord[] {
  let parsed: { record: string[]; info: { bytes: number } }[];
  try {
    const options = { bom: true, info: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true };
    // With `info: true` each record comes as { record, info }; the typings do not model that.
    parsed = parse(bytes, options) as unknown as typeof parsed;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    throw new SuiteError([new InputError(`CSV syntax: ${error.message}`, { file, ...(line ? { line } : {}) })]);
  }
  const lines = startLines(bytes, parsed.map((entry) => entry.info.bytes));
  return parsed
    .map((entry, index) => ({ line: lines[index] ?? 1, cells: entry.record }))
    .filter((record) => record.cells.some((cell) => cell.trim() !== ''));
}

export const CSV_COLUMNS = ['id', 'prompt', 'thread', 'turn', 'model', 'expected', ...REQUEST_OPTION_KEYS] as const;
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
