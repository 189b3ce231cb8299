// A CSV suite's threads: rows sharing `thread` grouped, ordered by `turn`, and built into one conversation.
import { InputError } from '../domain/errors.js';
import type { SuiteThread, SuiteTurn } from '../domain/suite.js';
import type { CsvRow } from './csv-row.js';

function at(file: string, row: { line: number }, field: string, message: string): InputError {
  return new InputError(message, { file, line: row.line, field });
}

/** Orders a thread's rows by `turn`; turns must run 1..n with none skipped or repeated. */
function orderTurns(threadId: string, rows: CsvRow[], file: string, issues: InputError[]): CsvRow[] {
  const numbered = rows.filter((row) => row.turn !== undefined);
  if (numbered.length === 0) return rows; // no numbers at all: the file order is the turn order
  if (numbered.length < rows.length) {
    for (const row of rows.filter((r) => r.turn === undefined)) {
      issues.push(at(file, row, 'turn', `turn is empty, but other rows of thread "${threadId}" number their turns`));
    }
    return rows;
  }
  const sorted = [...rows].sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
  const found = sorted.map((row) => row.turn).join(', ');
  for (const [index, row] of sorted.entries()) {
    const previous = sorted[index - 1];
    if (previous && previous.turn === row.turn) {
      issues.push(at(file, row, 'turn', `turn ${row.turn} of thread "${threadId}" is repeated (also on line ${previous.line}); turns found: ${found}`));
      return sorted;
    }
    if (row.turn !== index + 1) {
      issues.push(at(file, row, 'turn', `thread "${threadId}" skips turn ${index + 1}: turns are numbered 1, 2, 3…; turns found: ${found}`));
      return sorted;
    }
  }
  return sorted;
}

/** A conversation runs whole on each of its models, so its rows must agree on `model`. */
function threadModels(threadId: string, rows: CsvRow[], file: string, issues: InputError[]): string[] | undefined {
  const withModels = rows.filter((row) => row.models !== undefined);
  const first = withModels[0];
  if (first === undefined) return undefined;
  for (const row of withModels.slice(1)) {
    if (row.models?.join(',') !== first.models?.join(',')) {
      const message = `model "${row.models?.join(',')}" differs from "${first.models?.join(',')}" on line ${first.line}; all rows of thread "${threadId}" run on the same models`;
      issues.push(at(file, row, 'model', message));
    }
  }
  return first.models;
}

/** `checkOrder` is false for a thread with a row that could not be read: its gaps would be false. */
export function buildThread(id: string, rows: CsvRow[], file: string, issues: InputError[], checkOrder: boolean): SuiteThread {
  const ordered = checkOrder ? orderTurns(id, rows, file, issues) : rows;
  const turns: SuiteTurn[] = ordered.map((row, index) => ({
    turn: index + 1,
    prompt: row.prompt,
    options: row.options,
    assert: row.assert,
    location: { file, line: row.line },
  }));
  const thread: SuiteThread = { id, turns, location: { file, line: rows[0]?.line ?? 1 } };
  const models = threadModels(id, rows, file, issues);
  if (models) thread.models = models;
  const expectFail = rows.find((row) => row.expect_fail !== undefined)?.expect_fail;
  if (expectFail !== undefined) thread.expect_fail = expectFail;
  // A thread's tags: every tag any of its rows names.
  const tags = new Set(rows.flatMap((row) => row.tags ?? []));
  if (tags.size > 0) thread.tags = [...tags];
  return thread;
}

/** Appends in place: copying the list per row made a 40,000-turn thread take 14 s (quadratic). */
export function rowsByThread(rows: CsvRow[]): Map<string, CsvRow[]> {
  const threads = new Map<string, CsvRow[]>();
  for (const row of rows) {
    if (row.thread === undefined) continue;
    const list = threads.get(row.thread);
    if (list) list.push(row);
    else threads.set(row.thread, [row]);
  }
  return threads;
}

