// After a run (or for `kbbench report`): every report rebuilt from results.ndjson, run.json's thresholds judged in the same pass.
import type { RunInfo } from '../domain/run.js';
import type { Summary } from '../domain/summary.js';
import { buildReports } from '../report/index.js';

export async function finishReports(runDir: string, run: RunInfo): Promise<Summary> {
  const { summary } = await buildReports({ runDir, run, thresholds: run.thresholds ?? {}, dropped: run.dropped ?? 0 });
  return summary;
}
