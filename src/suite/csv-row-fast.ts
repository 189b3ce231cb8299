// Reads an ordinary CSV row by hand, without zod: the fast path that proves a row valid or steps aside.
//
// zod built ~40 objects per row and was most of the load time. These checks accept exactly what
// the schemas of csv-row.ts accept, and build the same CsvRow; anything they are not sure of
// (any problem, any odd value) returns undefined, and the caller reads the row with zod, which
// gives today's messages. So a message can never differ: only zod ever writes one.
import type { CheckSpec, RequestOptions, SourceLocation } from '../domain/suite.js';
import { parseAssertionCell, type AssertionParse } from './assertion.js';
import { EXPECTED_COLUMN, type CsvHeader } from './csv-records.js';
import type { CsvRow } from './csv-row.js';
import { modelList, tagList } from './primitives.js';

/** Where each known column sits in a row (-1 when the header has none), worked out once per file. */
export interface RowShape {
  width: number;
  unnamed: readonly number[];
  id: number;
  prompt: number;
  thread: number;
  turn: number;
  model: number;
  tags: number;
  method: number;
  streaming: number;
  plaintext: number;
  include_usage: number;
  additional_context: number;
  save_history: number;
  user: number;
  source: number;
  expect_fail: number;
  /** Assertion columns in header order: `expected` (contains) or a promptfoo `__expected` cell. */
  checks: readonly { index: number; promptfoo: boolean }[];
}

export function rowShape(header: CsvHeader): RowShape {
  const at = (name: string): number => header.columns.indexOf(name);
  const checks: { index: number; promptfoo: boolean }[] = [];
  header.columns.forEach((column, index) => {
    if (column === 'expected') checks.push({ index, promptfoo: false });
    else if (column !== null && EXPECTED_COLUMN.test(column)) checks.push({ index, promptfoo: true });
  });
  return {
    width: header.columns.length, unnamed: header.unnamed, id: at('id'), prompt: at('prompt'), thread: at('thread'), turn: at('turn'),
    model: at('model'), tags: at('tags'), method: at('method'), streaming: at('streaming'), plaintext: at('plaintext'), include_usage: at('include_usage'),
    additional_context: at('additional_context'), save_history: at('save_history'), user: at('user'), source: at('source'), expect_fail: at('expect_fail'), checks,
  };
}

const BOOLEANS = new Map<string, boolean>([['true', true], ['yes', true], ['1', true], ['false', false], ['no', false], ['0', false]]);
const ID_SEPARATORS = /[|\r\n\t]/;
const WHOLE_NUMBER = /^\d+$/;

/** A promptfoo cell's parse, kept per distinct text: suites repeat their checks row after row. */
const CELL_CACHE_LIMIT = 4096;
const cellCache = new Map<string, AssertionParse>();

function promptfooCheck(cell: string): CheckSpec | undefined {
  let parsed = cellCache.get(cell);
  if (parsed === undefined) {
    parsed = parseAssertionCell(cell);
    // Shared by every row with this text, so frozen: a check is read, never changed.
    if ('spec' in parsed) Object.freeze(Object.freeze(parsed.spec).value);
    if (cellCache.size < CELL_CACHE_LIMIT) cellCache.set(cell, parsed);
  }
  return 'spec' in parsed ? parsed.spec : undefined;
}

/** An optional cell's value, or undefined when it is absent or blank (as the schema's `cell()`). */
function present(cells: readonly string[], index: number): string | undefined {
  if (index < 0) return undefined;
  const value = cells[index] ?? '';
  return value.trim() === '' ? undefined : value;
}

const NOT_SURE = Symbol('not sure');
type Read<T> = T | undefined | typeof NOT_SURE;

function booleanAt(cells: readonly string[], index: number): Read<boolean> {
  const value = present(cells, index);
  return value === undefined ? undefined : (BOOLEANS.get(value.trim().toLowerCase()) ?? NOT_SURE);
}

function idAt(cells: readonly string[], index: number): Read<string> {
  const value = present(cells, index);
  if (value === undefined) return undefined;
  const id = value.trim();
  return ID_SEPARATORS.test(id) ? NOT_SURE : id;
}

function optionsOf(shape: RowShape, cells: readonly string[]): RequestOptions | undefined {
  const options: RequestOptions = {};
  const method = present(cells, shape.method)?.trim().toLowerCase();
  if (method !== undefined) {
    if (method !== 'post' && method !== 'get') return undefined;
    options.method = method;
  }
  for (const key of ['streaming', 'plaintext', 'include_usage'] as const) {
    const value = booleanAt(cells, shape[key]);
    if (value === NOT_SURE) return undefined;
    if (value !== undefined) options[key] = value;
  }
  const context = present(cells, shape.additional_context);
  if (context !== undefined) options.additional_context = context;
  const saveHistory = booleanAt(cells, shape.save_history);
  if (saveHistory === NOT_SURE) return undefined;
  if (saveHistory !== undefined) options.save_history = saveHistory;
  const user = present(cells, shape.user);
  if (user !== undefined) options.user = user.trim();
  const source = present(cells, shape.source);
  if (source !== undefined) options.source = source.trim();
  return options;
}

function checksOf(shape: RowShape, cells: readonly string[], where: SourceLocation): CheckSpec[] | undefined {
  const specs: CheckSpec[] = [];
  for (const { index, promptfoo } of shape.checks) {
    const value = cells[index] ?? '';
    if (value.trim() === '') continue;
    if (!promptfoo) {
      specs.push({ type: 'contains', value: value.trim(), location: where });
      continue;
    }
    const spec = promptfooCheck(value);
    if (spec === undefined) return undefined;
    // A literal, not a spread: the eager loader's `{ ...spec, location }` gave each check its own hidden class.
    specs.push({ type: spec.type, value: spec.value, location: where } as CheckSpec);
  }
  return specs;
}

/** The row as readCsvRow builds it when the row is valid; undefined when zod must read it. */
export function readCsvRowFast(shape: RowShape, cells: readonly string[], line: number, file: string): CsvRow | undefined {
  for (let i = shape.width; i < cells.length; i += 1) if ((cells[i] ?? '').trim() !== '') return undefined;
  for (const index of shape.unnamed) if ((cells[index] ?? '').trim() !== '') return undefined;
  const id = idAt(cells, shape.id);
  const prompt = present(cells, shape.prompt);
  const thread = idAt(cells, shape.thread);
  if (id === undefined || id === NOT_SURE || prompt === undefined || thread === NOT_SURE) return undefined;
  let turn: number | undefined;
  const turnCell = present(cells, shape.turn)?.trim();
  if (turnCell !== undefined) {
    turn = Number(turnCell);
    if (!WHOLE_NUMBER.test(turnCell) || !Number.isSafeInteger(turn) || turn < 1) return undefined;
  }
  const options = optionsOf(shape, cells);
  if (options === undefined) return undefined;
  const assert = checksOf(shape, cells, { file, line });
  if (assert === undefined) return undefined;
  const row: CsvRow = { line, id, prompt, options, assert };
  if (thread !== undefined) row.thread = thread;
  if (turn !== undefined) row.turn = turn;
  const tagCell = present(cells, shape.tags);
  if (tagCell !== undefined) {
    // Anything odd (a character a tag may not hold) goes to zod, which words the message.
    if (/[{}:]/.test(tagCell)) return undefined;
    const tags = tagList(tagCell);
    if (tags.length > 0) row.tags = tags;
  }
  const model = present(cells, shape.model);
  if (model !== undefined) {
    const models = modelList(model);
    if (models.length > 0) row.models = models;
  }
  const expectFail = present(cells, shape.expect_fail)?.trim();
  if (expectFail) row.expect_fail = expectFail;
  return row;
}
