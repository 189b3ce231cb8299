// samples.csv: results.ndjson as a table, one row per request, every answer in full (formula-safe).
import { RUN_FILES } from '../store/run-dir.js';
import { join } from 'node:path';
import type { CheckResult, Sample } from '../domain/sample.js';
import { spreadsheetSafe } from './csv-cell.js';
import { csvRecord } from './csv-row.js';
import type { ReportInput, ReportWriter } from './types.js';
import { streamFileAtomic } from '../store/atomic-file.js';

type Cell = string | number | boolean | null | undefined;

/** Column name → how to read it from a Sample; the order is the file's. */
const COLUMNS: ReadonlyArray<readonly [string, (s: Sample) => Cell]> = [
  ['item_id', (s) => s.item_id],
  ['case_id', (s) => s.case_id],
  ['thread_id', (s) => s.thread_id],
  ['turn', (s) => s.turn],
  ['model', (s) => s.model],
  ['repeat', (s) => s.repeat],
  ['endpoint', (s) => s.endpoint],
  ['method', (s) => s.method],
  ['streaming', (s) => s.streaming],
  ['conversation_id', (s) => s.conversation_id],
  ['started_at', (s) => s.started_at],
  ['offset_ms', (s) => s.offset_ms],
  ['status', (s) => s.status],
  ['outcome', (s) => s.outcome],
  ['error_code', (s) => s.error?.code],
  ['error_message', (s) => s.error?.message],
  ['attempts', (s) => s.attempts],
  ['ttfb_ms', (s) => s.ttfb_ms],
  ['ttfc_ms', (s) => s.ttfc_ms],
  ['last_chunk_ms', (s) => s.last_chunk_ms],
  ['finish_ms', (s) => s.finish_ms],
  ['usage_ms', (s) => s.usage_ms],
  ['latency_ms', (s) => s.latency_ms],
  ['scheduled_delay_ms', (s) => s.scheduled_delay_ms],
  ['corrected_latency_ms', (s) => s.corrected_latency_ms],
  ['chunks', (s) => s.chunks],
  ['chars', (s) => s.chars],
  ['gap_mean_ms', (s) => s.gap_mean_ms],
  ['gap_max_ms', (s) => s.gap_max_ms],
  ['stream_dialect', (s) => s.stream_dialect],
  ['credits_used', (s) => s.credits_used],
  ['credits_remaining', (s) => s.credits_remaining],
  ['credits_unknown', (s) => s.credits_unknown],
  // The run an answer was taken from (--reuse-answers, regrade); empty for one asked in this run.
  ['reused_from', (s) => s.reused_from ?? ''],
  ['pass', (s) => s.pass],
  ['checks_failed', (s) => s.checks.filter((c) => c.pass === false).length],
  ['not_judged', (s) => s.not_judged ?? ''],
  ['checks', (s) => flattenChecks(s.checks)],
  ['prompt', (s) => s.prompt],
  ['text', (s) => s.text],
];

export const SAMPLES_CSV_COLUMNS: readonly string[] = COLUMNS.map(([name]) => name);

/** One line per check, `PASS contains: found "30 days"`: readable in a spreadsheet cell. */
export function flattenChecks(checks: readonly CheckResult[]): string {
  return checks.map((c) => `${c.pass === true ? 'PASS' : c.pass === null ? 'NOT JUDGED' : 'FAIL'} ${c.type}: ${c.detail}`).join('\n');
}

/** A row of cells; a text cell a spreadsheet would run as a formula starts with `'` (csv-cell.ts). */
export function sampleToRow(sample: Sample): Cell[] {
  return COLUMNS.map(([, read]) => spreadsheetSafe(read(sample) ?? null));
}

/** Rows written to the file a few hundred at a time (one write each, not one per row). */
const ROWS_PER_CHUNK = 256;

/** Rows as text, ROWS_PER_CHUNK to a chunk. */
async function* csvText(samples: AsyncIterable<Sample>): AsyncGenerator<string> {
  let chunk = csvRecord(SAMPLES_CSV_COLUMNS);
  let rows = 0;
  for await (const sample of samples) {
    chunk += csvRecord(sampleToRow(sample));
    if (++rows % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

export const samplesCsvWriter: ReportWriter = {
  fileName: RUN_FILES.samplesCsv,
  write(input: ReportInput): Promise<string> {
    return streamFileAtomic(join(input.runDir, this.fileName), csvText(input.samples()));
  },
};
