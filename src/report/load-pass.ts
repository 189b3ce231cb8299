// The load figures of a run for its reports: timeline.ndjson read through store/, or, when the
// file is missing, the timeline rebuilt from the results in the same pass that summarises them.
import { hasSchedule, type RunLoad } from '../domain/load.js';
import { scheduleOf, workersProfileOf } from '../load/index.js';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { answerBoundsOf, goodAnswerOf, sloOfLoad } from '../metrics/goodput.js';
import { createLoadAnalysis, type LoadAnalysis } from '../metrics/load-analysis.js';
import { rateInStages } from '../metrics/stage-window.js';
import { createTimelineRebuilder } from '../metrics/timeline-rebuild.js';
import { hasTimeline, readTimeline } from '../store/timeline-file.js';

export interface LoadPass {
  /** Each result, in the summarising pass: the stage table's (by start), and the rebuilt timeline's when the file is missing. */
  add(sample: Sample): void;
  finish(): Promise<LoadAnalysis | null>;
}

/**
 * The run's stages as run.json recorded them; a `--concurrency-stages` run written before its stages
 * were recorded (kbbench 0.1.0 and issue 17's first schema 2) has them rebuilt from its spec.
 */
export function recordedSchedule(run: RunInfo): RunLoad | null {
  if (hasSchedule(run.load)) return run.load;
  return workersProfileOf(run.load.spec) !== null ? scheduleOf(run.load.spec) : null;
}

export function createLoadPass(runDir: string, run: RunInfo): LoadPass {
  const load = recordedSchedule(run);
  const goodAnswer = goodAnswerOf(answerBoundsOf(sloOfLoad(run.load.spec)));
  const analysis = createLoadAnalysis({ stages: load?.stages ?? null, maxInFlight: load?.max_in_flight ?? null, goodAnswer });
  const startWallMs = Date.parse(run.started_at);
  // Worker stages have no target rate: a rebuilt timeline then has none either.
  const rates = load !== null && load.stages.every((s) => s.target_unit === undefined) ? load : null;
  const rebuild = hasTimeline(runDir) || !Number.isFinite(startWallMs)
    ? null
    : createTimelineRebuilder(startWallMs, rates ? (t) => rateInStages(rates.stages, t) : undefined, goodAnswer);
  return {
    add(sample) {
      analysis.addSample(sample);
      if (!rebuild) return;
      rebuild.add(sample);
      for (const line of rebuild.take()) analysis.add(line);
    },
    async finish() {
      if (rebuild) for (const line of rebuild.finish()) analysis.add(line);
      else for await (const line of readTimeline(runDir)) analysis.add(line);
      return analysis.finish();
    },
  };
}
