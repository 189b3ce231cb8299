// summary.json: the run's totals, per-model statistics, thresholds and verdict (CONTRACT.md).
import { RUN_FILES } from '../store/run-dir.js';
import { join } from 'node:path';
import type { ReportInput, ReportWriter } from './types.js';
import { writeFileAtomic } from '../store/atomic-file.js';

export const summaryJsonWriter: ReportWriter = {
  fileName: RUN_FILES.summary,
  write(input: ReportInput): Promise<string> {
    return writeFileAtomic(join(input.runDir, this.fileName), `${JSON.stringify(input.summary, null, 2)}\n`);
  },
};
