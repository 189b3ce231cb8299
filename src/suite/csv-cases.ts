// The cases of a CSV suite as an index into the file's bytes: each case is read from its row again
// when the plan asks for it, so a million cases cost the file plus 8 bytes each, not a million objects.
import type { CaseList, SuiteCase } from '../domain/suite.js';
import { readCsvRecordAt, type CsvHeader, type CsvSource } from './csv-records.js';
import { readCsvRowFast, type RowShape } from './csv-row-fast.js';
import { readCsvRow, type CsvRow } from './csv-row.js';

/** The case a row makes: the same shape the eager loader built. */
export function caseOfRow(row: CsvRow, file: string): SuiteCase {
  const built: SuiteCase = { id: row.id, prompt: row.prompt, options: row.options, assert: row.assert, location: { file, line: row.line } };
  if (row.models) built.models = row.models;
  if (row.expect_fail !== undefined) built.expect_fail = row.expect_fail;
  if (row.tags) built.tags = row.tags;
  return built;
}

/**
 * Where each case row's reading starts and the line it starts on, in typed arrays (8 bytes a case).
 * 32 bits hold any offset: a Buffer is at most 4 GiB in Node 20, and readFile stops at 2 GiB.
 */
export class CaseIndex {
  private from: Uint32Array;
  private lines: Uint32Array;
  length = 0;

  constructor(expected: number) {
    this.from = new Uint32Array(Math.max(16, expected));
    this.lines = new Uint32Array(Math.max(16, expected));
  }

  push(from: number, line: number): void {
    if (this.length === this.from.length) this.resize(this.length * 2);
    this.from[this.length] = from;
    this.lines[this.length] = line;
    this.length += 1;
  }

  fromAt(index: number): number {
    return this.from[index]!;
  }

  lineAt(index: number): number {
    return this.lines[index]!;
  }

  /** Gives back what the first guess of the row count over-reserved (thread rows, multi-line cells). */
  trim(): void {
    if (this.from.length - this.length > 1024 && this.length < this.from.length * 0.9) this.resize(this.length);
  }

  private resize(size: number): void {
    const from = new Uint32Array(size);
    const lines = new Uint32Array(size);
    from.set(this.from.subarray(0, Math.min(size, this.length)));
    lines.set(this.lines.subarray(0, Math.min(size, this.length)));
    this.from = from;
    this.lines = lines;
  }
}

export interface CsvRowReader {
  source: CsvSource;
  header: CsvHeader;
  shape: RowShape;
  file: string;
}

/** Reads the row whose reading starts at `from`: by hand when it can, else through zod (as loading did). */
export function readRowAt(reader: CsvRowReader, from: number, line: number): CsvRow {
  const cells = readCsvRecordAt(reader.source, from);
  const row = readCsvRowFast(reader.shape, cells, line, reader.file) ?? readCsvRow(reader.header, { line, cells }, reader.file).row;
  if (row === undefined) throw new Error(`${reader.file}:${line}: a row that loaded can no longer be read`);
  return row;
}

/**
 * A CaseList over a validated CSV file. Loading checked every row, so a read cannot fail; each
 * read builds a fresh SuiteCase (callers treat cases as values). The bytes must not change.
 */
export class CsvCaseList implements CaseList {
  readonly length: number;

  constructor(
    private readonly reader: CsvRowReader,
    private readonly index: CaseIndex,
    /** Loading saw a case row with a `model` cell. */
    readonly restrictsModels: boolean,
  ) {
    this.length = index.length;
  }

  /** As Array.prototype.at: a negative index counts from the end. */
  at(index: number): SuiteCase | undefined {
    const whole = Math.trunc(index) || 0;
    const k = whole < 0 ? whole + this.length : whole;
    if (k < 0 || k >= this.length) return undefined;
    return caseOfRow(readRowAt(this.reader, this.index.fromAt(k), this.index.lineAt(k)), this.reader.file);
  }

  *[Symbol.iterator](): IterableIterator<SuiteCase> {
    for (let k = 0; k < this.length; k += 1) yield this.at(k)!;
  }
}
