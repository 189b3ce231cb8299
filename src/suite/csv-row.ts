// Interprets one CSV row: typed cells (zod), request options, and its assertions.
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import type { CheckSpec, RequestOptions, SourceLocation } from '../domain/suite.js';
import { parseAssertion, parseAssertionCell, type AssertionParse } from './assertion.js';
import { EXPECTED_COLUMN, type CsvHeader, type CsvRecord } from './csv-records.js';
import { idSchema, modelList, nonEmptyText, pickOptions, tagsSchema } from './primitives.js';
import { issueMessage } from './zod-issues.js';

export interface CsvRow {
  line: number;
  id: string;
  prompt: string;
  thread?: string;
  turn?: number;
  models?: string[];
  /** `expect_fail` cell: the case (or, on any row of a thread, the thread) is expected to fail, with this reason. */
  expect_fail?: string;
  tags?: string[];
  options: RequestOptions;
  assert: CheckSpec[];
}

const BOOLEANS: Record<string, boolean> = { true: true, yes: true, '1': true, false: false, no: false, '0': false };

const booleanCell = z.string().transform((value, ctx) => {
  const parsed = BOOLEANS[value.trim().toLowerCase()];
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be true/false, yes/no or 1/0, found "${value}"` });
    return z.NEVER;
  }
  return parsed;
});

/** An optional cell: an empty one is absent. */
function cell<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());
}

const rowSchema = z.object({
  id: idSchema,
  prompt: nonEmptyText,
  thread: cell(idSchema),
  turn: cell(z.string().trim().regex(/^\d+$/, 'must be a whole number (1, 2, 3…)').transform(Number).pipe(z.number().min(1, 'must be 1 or more'))),
  model: cell(z.string().transform(modelList)),
  tags: cell(tagsSchema),
  method: cell(z.string().trim().toLowerCase().pipe(z.enum(['post', 'get'], { error: (issue) => `must be post or get, found "${String(issue.input)}"` }))),
  streaming: cell(booleanCell),
  plaintext: cell(booleanCell),
  include_usage: cell(booleanCell),
  save_history: cell(booleanCell),
  additional_context: cell(z.string()),
  user: cell(z.string().trim()),
  source: cell(z.string().trim()),
  expected: cell(z.string()),
  expect_fail: cell(z.string().trim()),
});

function assertionsOf(header: CsvHeader, record: CsvRecord, where: SourceLocation, issues: InputError[]): CheckSpec[] {
  const specs: CheckSpec[] = [];
  const add = (parsed: AssertionParse, column: string, index: number): void => {
    if ('spec' in parsed) {
      specs.push({ ...parsed.spec, location: where });
      return;
    }
    // The cell's own line and column, so an editor or CI log links straight to the mistake.
    const cell = record.cellAt?.(index);
    for (const issue of parsed.issues) issues.push(new InputError(issue.message, { ...where, ...cell, field: column }));
  };
  header.columns.forEach((column, index) => {
    const value = record.cells[index] ?? '';
    if (column === null || value.trim() === '') return;
    if (column === 'expected') add(parseAssertion({ contains: value.trim() }), column, index);
    else if (EXPECTED_COLUMN.test(column)) add(parseAssertionCell(value), column, index);
  });
  return specs;
}

/** The cells that place a row (which case or thread, which turn), read even when others fail. */
const placeSchema = rowSchema.pick({ id: true, thread: true, turn: true });

export interface CsvRowRead {
  /** Present when the row could be placed, even if other cells have problems. */
  row?: CsvRow;
  issues: InputError[];
  /** The `thread` cell as written, so a thread with an unreadable row is not judged on the rest. */
  threadCell: string;
}

function placedRow(cells: Record<string, string>, line: number): CsvRow | undefined {
  const place = placeSchema.safeParse(cells);
  if (!place.success) return undefined;
  const row: CsvRow = { line, id: place.data.id, prompt: cells.prompt ?? '', options: {}, assert: [] };
  if (place.data.thread !== undefined) row.thread = place.data.thread;
  if (place.data.turn !== undefined) row.turn = place.data.turn;
  return row;
}

/** One row, or the problems it has (each naming the row's line and the column). */
export function readCsvRow(header: CsvHeader, record: CsvRecord, file: string): CsvRowRead {
  const where: SourceLocation = { file, line: record.line };
  const issues: InputError[] = [];
  // Spreadsheets pad rows with empty cells; only content past the header is a problem.
  if (record.cells.slice(header.columns.length).some((extra) => extra.trim() !== '')) {
    const message = `the row has ${record.cells.length} fields but the header has ${header.columns.length}; quote a field that contains a comma`;
    issues.push(new InputError(message, { ...where, field: 'row' }));
  }
  for (const index of header.unnamed) {
    if ((record.cells[index] ?? '').trim() === '') continue;
    issues.push(new InputError(`column ${index + 1} has a value but no name in the header; name the column or empty it`, { ...where, field: `column ${index + 1}` }));
  }
  const cells: Record<string, string> = {};
  header.columns.forEach((column, index) => {
    if (column !== null) cells[column] = record.cells[index] ?? '';
  });
  const assert = assertionsOf(header, record, where, issues);
  const parsed = rowSchema.safeParse(cells, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issues.push(new InputError(issueMessage(issue), { ...where, field: String(issue.path[0] ?? 'row') }));
  }
  const threadCell = (cells.thread ?? '').trim();
  if (!parsed.success || issues.length > 0) {
    const row = placedRow(cells, record.line);
    return row ? { row, issues, threadCell } : { issues, threadCell };
  }
  const data = parsed.data;
  const row: CsvRow = { line: record.line, id: data.id, prompt: data.prompt, options: pickOptions(data), assert };
  if (data.thread !== undefined) row.thread = data.thread;
  if (data.turn !== undefined) row.turn = data.turn;
  if (data.model !== undefined && data.model.length > 0) row.models = data.model;
  if (data.expect_fail !== undefined && data.expect_fail !== '') row.expect_fail = data.expect_fail;
  if (data.tags !== undefined && data.tags.length > 0) row.tags = data.tags;
  return { row, issues, threadCell };
}
