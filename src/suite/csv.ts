// Reads a CSV suite: one row per case or per turn; rows sharing `thread` form one conversation.
//
// One pass over the rows validates each as it is read and keeps only what later checks need:
// where each case row starts (csv-cases.ts), a hash of each id (csv-ids.ts), and the thread rows
// (few, and needed whole to order their turns). Cases are read again from the bytes when asked for.
import { InputError } from '../domain/errors.js';
import { CaseIndex, CsvCaseList, readRowAt, type CsvRowReader } from './csv-cases.js';
import { IdHashes, type IdRow } from './csv-ids.js';
import { cellPosition, readCsvHeader, scanCsvRecords, type CsvHeader } from './csv-records.js';
import { readCsvRowFast, rowShape, type RowShape } from './csv-row-fast.js';
import { readCsvRow, type CsvRow } from './csv-row.js';
import type { ParsedSuite } from './parsed-suite.js';
import { isUnknownModel, unknownModelWarning } from './semantic.js';
import { SuiteError } from './suite-error.js';
import { buildThread, rowsByThread } from './csv-threads.js';

function at(file: string, row: { line: number }, field: string, message: string): InputError {
  return new InputError(message, { file, line: row.line, field });
}

/** A first guess of the row count, to size the index once: the file's line ends. */
function rowsBound(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = (byte: number): number => {
    let n = 0;
    for (let i = buffer.indexOf(byte); i !== -1; i = buffer.indexOf(byte, i + 1)) n += 1;
    return n;
  };
  const lf = count(0x0a);
  return (lf > 0 ? lf : count(0x0d)) + 1;
}

/** What the pass over the rows keeps. */
interface RowsRead {
  header: CsvHeader;
  reader: CsvRowReader;
  records: number;
  cases: CaseIndex;
  /** Some case row has models of its own. */
  restrictsModels: boolean;
  ids: IdHashes;
  /** Placed thread rows in file order, each with its position among the placed rows (ids). */
  threadRows: { row: CsvRow; placed: number }[];
  /** `thread` cells of rows that could not be placed: their threads are not judged on gaps. */
  unplaced: Set<string>;
  rowIssues: InputError[];
  /** Distinct tags of every row (few: tags are a vocabulary, not per-row data). */
  tags: Set<string>;
  turnIssues: InputError[];
  warnings: string[];
}

type RowsKept = Omit<RowsRead, 'header' | 'reader'>;

/** What a placed row leaves behind: a case row its offset, a thread row itself; every row its id. */
function keepRow(read: RowsKept, row: CsvRow, from: number, file: string): void {
  read.ids.add(row.id);
  for (const tag of row.tags ?? []) read.tags.add(tag);
  if (row.thread === undefined) {
    read.cases.push(from, row.line);
    if (row.models !== undefined) read.restrictsModels = true;
    if (row.turn !== undefined) read.turnIssues.push(at(file, row, 'turn', 'turn is set but thread is empty; a turn belongs to a thread'));
  } else {
    read.threadRows.push({ row, placed: read.ids.size - 1 });
  }
  for (const model of row.models ?? []) {
    if (isUnknownModel(model)) read.warnings.push(new InputError(unknownModelWarning(model), { file, line: row.line, field: 'model' }).describe());
  }
}

function readRows(bytes: Uint8Array, file: string): RowsRead {
  const expected = rowsBound(bytes);
  let header: CsvHeader | undefined;
  let shape: RowShape | undefined;
  // A bad header is reported once the whole file is read, so a syntax error further on still wins.
  let headerError: unknown;
  const read: RowsKept = {
    records: 0, cases: new CaseIndex(expected), restrictsModels: false, ids: new IdHashes(expected), threadRows: [],
    unplaced: new Set<string>(), rowIssues: [], tags: new Set<string>(), turnIssues: [], warnings: [],
  };
  const source = scanCsvRecords(bytes, file, (record, from) => {
    if (headerError !== undefined) return;
    if (header === undefined || shape === undefined) {
      try {
        header = readCsvHeader(record, file);
        shape = rowShape(header);
      } catch (error) {
        headerError = error;
      }
      return;
    }
    read.records += 1;
    let row = readCsvRowFast(shape, record.cells, record.line, file);
    if (row === undefined) {
      const slow = readCsvRow(header, { ...record, cellAt: (cell) => cellPosition(bytes, from, cell) }, file);
      for (const issue of slow.issues) read.rowIssues.push(issue);
      if (slow.row === undefined) {
        if (slow.threadCell !== '') read.unplaced.add(slow.threadCell);
        return;
      }
      row = slow.row;
    }
    keepRow(read, row, from, file);
  });
  if (headerError !== undefined) throw headerError;
  if (header === undefined || shape === undefined) {
    header = readCsvHeader(undefined, file); // throws: the file is empty
    shape = rowShape(header);
  }
  read.cases.trim();
  return { ...read, header, reader: { source, header, shape, file } };
}

/** Repeated ids, and thread ids that are also case ids, in the eager loader's order and words. */
function idIssues(read: RowsRead, file: string): InputError[] {
  const placedThreads = read.threadRows.map((entry) => entry.placed);
  const idRow = (placed: number): IdRow => {
    // Thread rows are few: a binary search says how many come before, hence which case row this is.
    let low = 0;
    let high = placedThreads.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (placedThreads[mid]! < placed) low = mid + 1;
      else high = mid;
    }
    const thread = read.threadRows[low];
    if (thread !== undefined && thread.placed === placed) return { id: thread.row.id, line: thread.row.line, thread: thread.row.thread! };
    const k = placed - low;
    const row = readRowAt(read.reader, read.cases.fromAt(k), read.cases.lineAt(k));
    return { id: row.id, line: row.line };
  };
  const threadIds = new Set(read.threadRows.map((entry) => entry.row.thread!));
  const { duplicates, caseLinesOfThreads } = read.ids.findings(threadIds, idRow);
  const issues = duplicates.map(({ id, first, duplicate }) => at(file, duplicate, 'id', `duplicate id "${id}" (first on line ${first.line}); ids must be unique`));
  const reported = new Set<string>();
  for (const { row } of read.threadRows) {
    const line = caseLinesOfThreads.get(row.thread!);
    if (line === undefined || reported.has(row.thread!)) continue;
    reported.add(row.thread!);
    issues.push(at(file, row, 'thread', `thread id "${row.thread}" is also the id of the case on line ${line}; ids must be unique across cases and threads`));
  }
  return issues;
}

export function parseCsvSuite(bytes: Uint8Array, file: string): ParsedSuite {
  const read = readRows(bytes, file);
  const issues = read.rowIssues;
  if (read.records === 0) issues.push(new InputError('the CSV file has a header but no rows', { file, line: read.header.line }));
  // Appended one by one: spreading a million issues into push() would overflow the stack.
  for (const issue of [...idIssues(read, file), ...read.turnIssues]) issues.push(issue);
  const threads = [...rowsByThread(read.threadRows.map((entry) => entry.row))].map(([id, threadRows]) =>
    buildThread(id, threadRows, file, issues, !read.unplaced.has(id)),
  );
  if (issues.length > 0) throw new SuiteError(issues);
  const cases = new CsvCaseList(read.reader, read.cases, read.restrictsModels);
  return { target: {}, models: [], defaults: {}, cases, threads, thresholds: {}, warnings: read.warnings, ...(read.tags.size > 0 ? { tags: [...read.tags] } : {}) };
}
