// summary.csv: one row per model, the numbers of summary.json flattened for spreadsheets.
import { RUN_FILES } from '../store/run-dir.js';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { RequestStats, TimingPercentiles } from '../domain/summary.js';
import { spreadsheetSafe } from './csv-cell.js';
import { creditsCell } from './format.js';
import type { ReportInput, ReportWriter } from './types.js';
import { writeFileAtomic } from '../store/atomic-file.js';

type Cell = string | number | null;

const PERCENTILE_KEYS = ['p50', 'p90', 'p95', 'p99', 'p999', 'max', 'mean'] as const;

function timingColumns(prefix: string, read: (s: RequestStats) => TimingPercentiles | null): Array<[string, (s: RequestStats) => Cell]> {
  return PERCENTILE_KEYS.map((key) => [`${prefix}_${key}`, (s) => read(s)?.[key] ?? null]);
}

const COLUMNS: Array<[string, (s: RequestStats) => Cell]> = [
  ['requests', (s) => s.requests],
  ['ok', (s) => s.ok],
  ['errors', (s) => s.errors],
  ['skipped', (s) => s.skipped],
  ['passed', (s) => s.passed],
  ['failed', (s) => s.failed],
  ['pass_rate', (s) => s.pass_rate],
  ['errors_by_kind', (s) => Object.entries(s.errors_by_kind).map(([k, n]) => `${k}=${n}`).join('; ')],
  ['retries', (s) => s.retries],
  ...timingColumns('ttfc_ms', (s) => s.ttfc_ms),
  ...timingColumns('latency_ms', (s) => s.latency_ms),
  ...timingColumns('ttfb_ms', (s) => s.ttfb_ms),
  ...timingColumns('gap_max_ms', (s) => s.gap_max_ms),
  ...timingColumns('corrected_latency_ms', (s) => s.corrected_latency_ms),
  ['chars', (s) => s.chars],
  ['chars_per_s', (s) => s.chars_per_s],
  ['credits_used', (s) => creditsCell(s.credits_used)],
  ['check_credits_used', (s) => creditsCell(s.check_credits_used)],
  ['credits_unknown', (s) => s.credits_unknown],
  ['credits_per_request', (s) => creditsCell(s.credits_per_request)],
  ['credits_per_passed', (s) => creditsCell(s.credits_per_passed)],
  ['credits_remaining', (s) => creditsCell(s.credits_remaining)],
];

export function renderSummaryCsv(models: Record<string, RequestStats>): string {
  const header = ['model', ...COLUMNS.map(([name]) => name)];
  const body = Object.entries(models).map(([model, stats]) => [model, ...COLUMNS.map(([, read]) => read(stats))].map(spreadsheetSafe));
  return stringify([header, ...body]);
}

export const summaryCsvWriter: ReportWriter = {
  fileName: RUN_FILES.summaryCsv,
  write(input: ReportInput): Promise<string> {
    return writeFileAtomic(join(input.runDir, this.fileName), renderSummaryCsv(input.summary.models));
  },
};
