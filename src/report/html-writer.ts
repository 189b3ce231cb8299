// report.html's writer: renders the page and writes it whole.
import { join } from 'node:path';
import { renderHtmlReport } from './html/render-html.js';
import type { ReportInput, ReportWriter } from './types.js';
import { writeFileAtomic } from '../store/atomic-file.js';

export const htmlWriter: ReportWriter = {
  fileName: 'report.html',
  write(input: ReportInput): Promise<string> {
    return writeFileAtomic(join(input.runDir, this.fileName), renderHtmlReport(input));
  },
};
