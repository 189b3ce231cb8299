// After a run (or for `kbbench report`): thresholds judged exactly on the results, then every report.
import { evaluateThresholds, thresholdSampleOf, type ThresholdSample } from '../checks/index.js';
import type { RunInfo } from '../domain/run.js';
import type { Summary } from '../domain/summary.js';
import { readResults } from '../store/results-reader.js';
import { buildReports } from '../report/index.js';

/** Only the numeric fields thresholds read are kept, so a large run's texts never sit in memory. */
async function thresholdSamples(runDir: string): Promise<ThresholdSample[]> {
  const samples: ThresholdSample[] = [];
  for await (const s of readResults(runDir)) samples.push(thresholdSampleOf(s));
  return samples;
}

export async function finishReports(runDir: string, run: RunInfo): Promise<Summary> {
  const thresholds = run.thresholds ?? {};
  const hasThresholds = Object.keys(thresholds).length > 0;
  const results = hasThresholds ? evaluateThresholds(thresholds, await thresholdSamples(runDir)) : [];
  const { summary } = await buildReports({ runDir, run, thresholds: results, dropped: run.dropped ?? 0 });
  return summary;
}
