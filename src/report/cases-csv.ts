// cases.csv: every case (or thread turn) × model row, streamed from the case table, for scripts; always written.
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CASES_CSV_FILE } from '../metrics/case-stats.js';
import type { CaseTable, CaseTableRow } from '../metrics/case-table.js';
import { spreadsheetSafe } from './csv-cell.js';
import { csvRecord } from './csv-row.js';
import { creditsCell } from './format.js';
import type { ReportInput, ReportWriter } from './types.js';
import { streamFileAtomic } from '../store/atomic-file.js';

type Cell = string | number | null;

const COLUMNS: ReadonlyArray<readonly [string, (r: CaseTableRow) => Cell]> = [
  ['key', (r) => r.key],
  ['label', (r) => r.label],
  ['case_id', (r) => r.case_id],
  ['thread_id', (r) => r.thread_id],
  ['turn', (r) => r.turn],
  ['model', (r) => r.model],
  ['requests', (r) => r.cell.requests],
  ['passed', (r) => r.cell.passed],
  ['failed', (r) => r.cell.failed],
  ['errors', (r) => r.cell.errors],
  ['skipped', (r) => r.cell.skipped],
  ['credits_used', (r) => creditsCell(r.cell.credits_used)],
  // Over every sent request of the cell, as its JUnit time is their sum (a timeout counts its wait).
  ['latency_ms_mean', (r) => (r.cell.requests > 0 ? Math.round((r.cell.latency_ms_sum / r.cell.requests) * 1000) / 1000 : null)],
  // summary.json's class of the cell (stable_pass, flaky, stable_fail, failed_to_answer, degrades_under_load); empty when unclassed.
  ['stability', (r) => r.cell.stability ?? null],
];

export const CASES_CSV_COLUMNS: readonly string[] = COLUMNS.map(([name]) => name);

/**
 * Model by model (the report's order), cases in run order within each (past the in-memory limit, in
 * partition order). Streamed line by line: a million rows never sit in memory, and an error reading
 * the table reaches the file writer (which then leaves no half file).
 */
export async function* casesCsvLines(table: CaseTable): AsyncGenerator<string> {
  // csvRecord writes what csv-stringify's defaults write (csv-row.test.ts), without its per-call options and per-field context (~7 KB a row).
  yield csvRecord(CASES_CSV_COLUMNS);
  for (const model of table.models) {
    for await (const row of table.rows(model)) yield csvRecord(COLUMNS.map(([, read]) => spreadsheetSafe(read(row))));
  }
}

export const casesCsvWriter: ReportWriter = {
  fileName: CASES_CSV_FILE,
  write(input: ReportInput): Promise<string> {
    return streamFileAtomic(join(input.runDir, this.fileName), Readable.from(casesCsvLines(input.cases)));
  },
};
