// Test support: the eager CSV loader as it was (every record, then every row, then every case in
// memory), kept verbatim as the reference that property tests hold the streaming loader to.
import { CsvError, parse } from 'csv-parse/sync';
import { InputError } from '../../domain/errors.js';
import type { SuiteCase } from '../../domain/suite.js';
import { cellPosition, readCsvHeader, unclosedQuoteError, type CsvRecord } from '../csv-records.js';
import { readCsvRow, type CsvRow } from '../csv-row.js';
import type { ParsedSuite } from '../parsed-suite.js';
import { findDuplicateIds, isUnknownModel, unknownModelWarning } from '../semantic.js';
import { SuiteError } from '../suite-error.js';
// Thread building is shared with the streaming loader (it was the same code): what the property test
// holds apart is how rows are read, validated and kept.
import { buildThread, rowsByThread } from '../csv-threads.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * csv-parse's own `info.lines` miscounts CRLF inside quoted fields, so lines are derived from
 * byte offsets instead: a record starts where the previous one ended (`info.bytes`, which
 * includes the BOM and the record delimiter), after any skipped empty lines.
 */
function startLines(bytes: Uint8Array, ends: readonly number[]): { lines: number[]; starts: number[] } {
  const lines: number[] = [];
  const starts: number[] = [];
  let cursor = 0;
  let line = 1;
  let start = 0;
  for (const end of ends) {
    while (start < bytes.length && (bytes[start] === LF || bytes[start] === CR)) start += 1;
    for (; cursor < start; cursor += 1) if (bytes[cursor] === LF) line += 1;
    lines.push(line);
    starts.push(start);
    start = end;
  }
  return { lines, starts };
}

function readCsvRecords(bytes: Uint8Array, file: string): CsvRecord[] {
  let parsed: { record: string[]; info: { bytes: number } }[];
  try {
    const options = { bom: true, info: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true };
    // With `info: true` each record comes as { record, info }; the typings do not model that.
    parsed = parse(bytes, options) as unknown as typeof parsed;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The line where the quote opened, found as the streaming loader finds it (kept in step).
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') throw unclosedQuoteError(bytes, file);
    const line = (error as CsvError & { lines?: number }).lines;
    throw new SuiteError([new InputError(`CSV syntax: ${error.message}`, { file, ...(line ? { line } : {}) })]);
  }
  const { lines, starts } = startLines(bytes, parsed.map((entry) => entry.info.bytes));
  return parsed
    .map((entry, index): CsvRecord => ({ line: lines[index] ?? 1, cells: entry.record, cellAt: (cell) => cellPosition(bytes, starts[index] ?? 0, cell) }))
    .filter((record) => record.cells.some((cell) => cell.trim() !== ''));
}


function at(file: string, row: CsvRow, field: string, message: string): InputError {
  return new InputError(message, { file, line: row.line, field });
}

/** Orders a thread's rows by `turn`; turns must run 1..n with none skipped or repeated. */
function buildCase(row: CsvRow, file: string): SuiteCase {
  const built: SuiteCase = { id: row.id, prompt: row.prompt, options: row.options, assert: row.assert, location: { file, line: row.line } };
  if (row.models) built.models = row.models;
  if (row.tags) built.tags = row.tags;
  return built;
}

function idIssues(rows: CsvRow[], file: string): InputError[] {
  const issues = findDuplicateIds(rows.map((row) => ({ id: row.id, ref: row }))).map(({ id, first, duplicate }) =>
    at(file, duplicate, 'id', `duplicate id "${id}" (first on line ${first.line}); ids must be unique`),
  );
  const caseLines = new Map(rows.filter((row) => row.thread === undefined).map((row) => [row.id, row.line]));
  const reported = new Set<string>();
  for (const row of rows) {
    const line = row.thread === undefined ? undefined : caseLines.get(row.thread);
    if (row.thread === undefined || line === undefined || reported.has(row.thread)) continue;
    reported.add(row.thread);
    issues.push(at(file, row, 'thread', `thread id "${row.thread}" is also the id of the case on line ${line}; ids must be unique across cases and threads`));
  }
  return issues;
}

export function parseCsvSuiteEager(bytes: Uint8Array, file: string): ParsedSuite {
  const [headerRecord, ...records] = readCsvRecords(bytes, file);
  const header = readCsvHeader(headerRecord, file);
  const issues: InputError[] = [];
  const rows: CsvRow[] = [];
  const unplaced = new Set<string>();
  for (const record of records) {
    const read = readCsvRow(header, record, file);
    issues.push(...read.issues);
    if (read.row) rows.push(read.row);
    else if (read.threadCell !== '') unplaced.add(read.threadCell);
  }
  if (records.length === 0) issues.push(new InputError('the CSV file has a header but no rows', { file, line: header.line }));
  issues.push(...idIssues(rows, file));
  for (const row of rows.filter((r) => r.thread === undefined && r.turn !== undefined)) {
    issues.push(at(file, row, 'turn', 'turn is set but thread is empty; a turn belongs to a thread'));
  }
  const threads = [...rowsByThread(rows)].map(([id, threadRows]) => buildThread(id, threadRows, file, issues, !unplaced.has(id)));
  if (issues.length > 0) throw new SuiteError(issues);
  const warnings = rows.flatMap((row) =>
    (row.models ?? []).filter(isUnknownModel).map((model) => new InputError(unknownModelWarning(model), { file, line: row.line, field: 'model' }).describe()),
  );
  const cases = rows.filter((row) => row.thread === undefined).map((row) => buildCase(row, file));
  const tags = new Set(rows.flatMap((row) => row.tags ?? []));
  return { target: {}, models: [], defaults: {}, cases, threads, thresholds: {}, warnings, ...(tags.size > 0 ? { tags: [...tags] } : {}) };
}
