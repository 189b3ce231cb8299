// report.html's writer: renders the page and writes it whole.
import { RUN_FILES } from '../store/run-dir.js';
import { join } from 'node:path';
import { renderHtmlReport } from './html/render-html.js';
import type { ReportInput, ReportWriter } from './types.js';
import { writeFileAtomic } from '../store/atomic-file.js';

export const htmlWriter: ReportWriter = {
  fileName: RUN_FILES.html,
  write(input: ReportInput): Promise<string> {
    return writeFileAtomic(join(input.runDir, this.fileName), renderHtmlReport(input));
  },
};
