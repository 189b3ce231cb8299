// What every report writer receives, and the registry's key: one format per file of a run directory.
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { Summary } from '../domain/summary.js';
import type { CaseTable } from '../metrics/case-table.js';
import type { RunDetails } from '../metrics/details.js';
import type { LoadAnalysis } from '../metrics/load-analysis.js';
import type { Evidence } from './evidence.js';

export const REPORT_FORMATS = ['summary-json', 'samples-csv', 'summary-csv', 'cases-csv', 'junit', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportInput {
  runDir: string;
  run: RunInfo;
  summary: Summary;
  details: RunDetails;
  /** The run over time (timeline.ndjson, or rebuilt from the results); null when there is neither. */
  load?: LoadAnalysis | null;
  evidence: Evidence;
  /** Every case × model row (summary.cases may be cut to the worst), read model by model. */
  cases: CaseTable;
  /** Streams results.ndjson again, for writers that need every row (samples.csv). */
  samples(): AsyncIterable<Sample>;
  /** The plan's items with no result line (a run that did not finish), streamed from the lazy plan; each call starts again. */
  unsent?: () => AsyncIterable<UnsentItem>;
}

/** One request of the plan that was never sent: junit.xml lists it as skipped with the reason. */
export interface UnsentItem {
  item_id: string;
  /** `refund-window`, `onboarding turn 2`: as the case table labels it. */
  label: string;
  model: string;
}

export interface ReportWriter {
  /** The file it writes inside the run directory. */
  readonly fileName: string;
  /** Writes the file; resolves to its path. */
  write(input: ReportInput): Promise<string>;
}
