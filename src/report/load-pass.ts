// The load figures of a run for its reports: timeline.ndjson read through store/, or, when the
// file is missing, the timeline rebuilt from the results in the same pass that summarises them.
import { hasSchedule } from '../domain/load.js';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { createLoadAnalysis, type LoadAnalysis } from '../metrics/load-analysis.js';
import { rateInStages } from '../metrics/stage-window.js';
import { createTimelineRebuilder } from '../metrics/timeline-rebuild.js';
import { hasTimeline, readTimeline } from '../store/timeline-file.js';

export interface LoadPass {
  /** Each result, in the summarising pass: the stage table's (by start), and the rebuilt timeline's when the file is missing. */
  add(sample: Sample): void;
  finish(): Promise<LoadAnalysis | null>;
}

export function createLoadPass(runDir: string, run: RunInfo): LoadPass {
  const load = hasSchedule(run.load) ? run.load : null;
  const analysis = createLoadAnalysis({ stages: load?.stages ?? null, maxInFlight: load?.max_in_flight ?? null });
  const startWallMs = Date.parse(run.started_at);
  const rebuild = hasTimeline(runDir) || !Number.isFinite(startWallMs)
    ? null
    : createTimelineRebuilder(startWallMs, load ? (t) => rateInStages(load.stages, t) : undefined);
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
