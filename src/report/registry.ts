// The report writers, one per format: the compiler demands a writer for every ReportFormat.
import { casesCsvWriter } from './cases-csv.js';
import { htmlWriter } from './html-writer.js';
import { junitWriter } from './junit-xml.js';
import { samplesCsvWriter } from './samples-csv.js';
import { summaryCsvWriter } from './summary-csv.js';
import { summaryJsonWriter } from './summary-json.js';
import type { ReportFormat, ReportWriter } from './types.js';

export const REPORT_WRITERS: Record<ReportFormat, ReportWriter> = {
  'summary-json': summaryJsonWriter,
  'samples-csv': samplesCsvWriter,
  'summary-csv': summaryCsvWriter,
  'cases-csv': casesCsvWriter,
  junit: junitWriter,
  html: htmlWriter,
};
