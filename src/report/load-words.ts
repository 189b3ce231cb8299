// Words for the load analysis (the knee, a stage's target), shared by the console and report.html: one way to say it.
import type { KneeSummary, StageSummary } from '../domain/load.js';
import { formatCount, formatTick } from './format.js';

export const KNEE_WORDS: Record<KneeSummary['by'], string> = {
  latency: 'p95 latency doubled against the first windows',
  errors: 'errors passed 1%',
  pass_rate: 'the pass rate fell 5 points',
};

export function kneeWords(knee: KneeSummary): string {
  const workers = knee.workers !== undefined ? ` (${formatCount(knee.workers)} workers)` : '';
  return `${formatTick(knee.rate_per_s)} starts/s${workers}: ${KNEE_WORDS[knee.by]}`;
}

/** True when the stages' targets are workers (`--concurrency-stages`), not starts per second. */
export const byWorkers = (stages: readonly StageSummary[]): boolean => stages.some((s) => s.target_unit === 'workers');

/** A stage's target (starts/s, or workers), held or ramping. */
export function stageTarget(s: StageSummary, arrow = ' → '): string {
  return s.from_rate === s.to_rate ? formatTick(s.to_rate) : `${formatTick(s.from_rate)}${arrow}${formatTick(s.to_rate)}`;
}
