// After a run (or for `kbbench report`): thresholds judged exactly on the results, then every report.
import { evaluateThresholds, type ThresholdSample } from '../checks/index.js';
import type { RunInfo } from '../domain/run.js';
import type { Summary } from '../domain/summary.js';
import { readResults } from '../metrics/read-results.js';
import { buildReports } from '../report/index.js';

/** Only the numeric fields thresholds read are kept, so a large run's texts never sit in memory. */
async function thresholdSamples(runDir: string): Promise<ThresholdSample[]> {
  const samples: ThresholdSample[] = [];
  for await (const s of readResults(runDir)) {
    samples.push({
      model: s.model, case_id: s.case_id, thread_id: s.thread_id, turn: s.turn, endpoint: s.endpoint, method: s.method,
      streaming: s.streaming, outcome: s.outcome, pass: s.pass, ttfc_ms: s.ttfc_ms, ttfb_ms: s.ttfb_ms, latency_ms: s.latency_ms,
      credits_used: s.credits_used, ...(s.corrected_latency_ms !== undefined ? { corrected_latency_ms: s.corrected_latency_ms } : {}),
    });
  }
  return samples;
}

export async function finishReports(runDir: string, run: RunInfo): Promise<Summary> {
  const thresholds = run.thresholds ?? {};
  const hasThresholds = Object.keys(thresholds).length > 0;
  const results = hasThresholds ? evaluateThresholds(thresholds, await thresholdSamples(runDir)) : [];
  const { summary } = await buildReports({ runDir, run, thresholds: results, dropped: run.dropped ?? 0 });
  return summary;
}
