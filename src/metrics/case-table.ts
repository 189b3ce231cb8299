// The whole case × model table (cases.csv, junit.xml): in memory up to the limit, else on disk, read one model at a time.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CaseCell } from '../domain/summary.js';
import { toCaseCell, type CaseEntry, type CasePlacement, type CellTotals } from './case-entry.js';
import { createLineWriter, type LineWriter } from './line-file.js';

export type CaseStatus = 'passed' | 'failure' | 'error' | 'skipped';

/** Failed checks outrank request errors: a wrong answer is the finding CI should show first. */
export function cellStatus(cell: Pick<CaseCell, 'failed' | 'errors' | 'requests' | 'skipped'> & { passed?: number; required?: number; repeat_pass?: number }): CaseStatus {
  // The one place a case × model is judged: `repeat_pass: k/n` passes it when k of its repeats passed.
  const required = cell.required ?? cell.repeat_pass ?? 0;
  if (required > 0 && cell.requests > 0) return (cell.passed ?? 0) >= required ? 'passed' : 'failure';
  if (cell.failed > 0) return 'failure';
  if (cell.errors > 0) return 'error';
  if (cell.requests === 0 && cell.skipped > 0) return 'skipped';
  return 'passed';
}

/** One model's rows by status (JUnit's testsuite attributes), known before any row is read. */
export interface CaseStatusCounts {
  tests: number;
  passed: number;
  failure: number;
  error: number;
  skipped: number;
  latencyMsSum: number;
}

export interface CaseTableRow {
  key: string;
  label: string;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  model: string;
  cell: CaseCell;
}

export interface CaseTable {
  /** Distinct case keys (one-time cases, thread turns, failed conversation creations). */
  readonly distinct: number;
  /** Models with at least one row, in report order. */
  readonly models: readonly string[];
  totals(model: string): CaseStatusCounts;
  /** One model's rows: in run order, or past the in-memory limit in partition order. Read as often as needed. */
  rows(model: string): AsyncIterable<CaseTableRow>;
  /** Deletes the temporary files a table past the limit lives in; a no-op in memory. */
  dispose(): void;
}

function emptyCounts(): CaseStatusCounts {
  return { tests: 0, passed: 0, failure: 0, error: 0, skipped: 0, latencyMsSum: 0 };
}

function count(counts: CaseStatusCounts, cell: CellTotals): void {
  counts.tests++;
  counts[cellStatus(cell)]++;
  counts.latencyMsSum += cell.latencyMsSum;
}

function rowOf(entry: CasePlacement, model: string, cell: CellTotals): CaseTableRow {
  return { key: entry.key, label: entry.label, case_id: entry.case_id, thread_id: entry.thread_id, turn: entry.turn, model, cell: toCaseCell(cell) };
}

/** The table of a run whose distinct cases fit in memory: `ordered` as summary.json lists them. */
export function memoryCaseTable(ordered: readonly CaseEntry[], modelOrder: readonly string[]): CaseTable {
  const totals = new Map<string, CaseStatusCounts>();
  for (const entry of ordered) {
    for (const [model, cell] of entry.cells) {
      const counts = totals.get(model) ?? emptyCounts();
      totals.set(model, counts);
      count(counts, cell);
    }
  }
  return {
    distinct: ordered.length,
    models: modelOrder.filter((m) => totals.has(m)),
    totals: (model) => totals.get(model) ?? emptyCounts(),
    async *rows(model) {
      for (const entry of ordered) {
        const cell = entry.cells.get(model);
        if (cell) yield rowOf(entry, model, cell);
      }
    },
    dispose: () => undefined,
  };
}

type TableLine = [key: string, label: string, caseId: string | null, threadId: string | null, turn: number | null, cell: CellTotals];

export interface CaseTableWriter {
  add(entry: CaseEntry): void;
  /** Closes the files; `dispose` removes the directory they are in. */
  finish(dispose: () => void): CaseTable;
}

/** A table on disk, one file per model (named by its index: model names are user text, never file names). */
export function createFileCaseTable(dir: string, modelOrder: readonly string[]): CaseTableWriter {
  const writers = new Map<string, LineWriter>();
  const totals = new Map<string, CaseStatusCounts>();
  const pathOf = (model: string): string => join(dir, `table-${modelOrder.indexOf(model)}.ndjson`);
  let distinct = 0;

  const add = (entry: CaseEntry): void => {
    distinct++;
    for (const [model, cell] of entry.cells) {
      let writer = writers.get(model);
      if (!writer) {
        writer = createLineWriter(pathOf(model));
        writers.set(model, writer);
        totals.set(model, emptyCounts());
      }
      count(totals.get(model)!, cell);
      const line: TableLine = [entry.key, entry.label, entry.case_id, entry.thread_id, entry.turn, cell];
      writer.write(JSON.stringify(line));
    }
  };

  const finish = (dispose: () => void): CaseTable => {
    for (const writer of writers.values()) writer.close();
    return {
      distinct,
      models: modelOrder.filter((m) => writers.has(m)),
      totals: (model) => totals.get(model) ?? emptyCounts(),
      async *rows(model) {
        if (!writers.has(model)) return;
        const lines = createInterface({ input: createReadStream(pathOf(model), { encoding: 'utf8' }), crlfDelay: Infinity });
        for await (const text of lines) {
          if (text === '') continue;
          const [key, label, case_id, thread_id, turn, cell] = JSON.parse(text) as TableLine;
          yield rowOf({ key, label, case_id, thread_id, turn, firstOffsetMs: 0 }, model, cell);
        }
      },
      dispose,
    };
  };

  return { add, finish };
}

/**
 * The table with the cells whose pass rate fell with the load (load-trend.ts `trendKey`s) classed
 * degrades_under_load, as summary.json's cases are: cases.csv then says what summary.json says.
 */
export function withDegrading(table: CaseTable, keys: ReadonlySet<string> | undefined, keyOf: (key: string, model: string) => string): CaseTable {
  if (keys === undefined || keys.size === 0) return table;
  return {
    get distinct() { return table.distinct; },
    get models() { return table.models; },
    totals: (model) => table.totals(model),
    async *rows(model) {
      for await (const row of table.rows(model)) yield keys.has(keyOf(row.key, model)) ? { ...row, cell: { ...row.cell, stability: 'degrades_under_load' } } : row;
    },
    dispose: () => table.dispose(),
  };
}
