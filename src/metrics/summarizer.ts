// The streaming accumulator: Samples in one at a time, a Summary (plus histograms and chart data) out.
import type { RunStatus, ThresholdResult } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { HistogramFile, ModelSummary, Summary, TotalsSummary, Verdict } from '../domain/summary.js';
import { createCaseStats } from './case-stats.js';
import { buildDetails, type RunDetails } from './details.js';
import { encodeHistogramSet, type HistogramSet } from './histogram-file.js';
import { setOwn } from './own-record.js';
import { createRequestStats, type RequestStatsAccumulator } from './request-stats.js';
import { createTimeline } from './timeline.js';

export interface SummaryContext {
  run_id: string;
  status: RunStatus;
  thresholds?: ThresholdResult[];
  /** Open-loop starts never sent (the runner counts them; they have no result line). */
  dropped?: number;
  /** Lines of results.ndjson that could not be read. */
  unreadable_lines?: number;
  /** run.json's duration; when null the samples' offsets give one. */
  duration_ms?: number | null;
  /** Models in the order the report should list them (the plan's); others follow alphabetically. */
  model_order?: readonly string[];
}

export interface SummarizerResult {
  summary: Summary;
  /** histograms.json's content. */
  histograms: HistogramFile;
  /** Chart data for report.html. */
  details: RunDetails;
}

export interface Summarizer {
  add(sample: Sample): void;
  finish(context: SummaryContext): SummarizerResult;
}

export function createSummarizer(): Summarizer {
  const total = createRequestStats();
  const models = new Map<string, RequestStatsAccumulator>();
  const cases = createCaseStats();
  const timeline = createTimeline();
  let lastEndMs = 0;

  const add = (sample: Sample): void => {
    let model = models.get(sample.model);
    if (!model) {
      model = createRequestStats();
      models.set(sample.model, model);
    }
    model.add(sample);
    total.add(sample);
    cases.add(sample);
    timeline.add(sample);
    lastEndMs = Math.max(lastEndMs, sample.offset_ms + (sample.latency_ms ?? 0));
  };

  const finish = (context: SummaryContext): SummarizerResult => {
    const order = orderModels([...models.keys()], context.model_order ?? []);
    const thresholds = context.thresholds ?? [];
    const modelSummaries: Record<string, ModelSummary> = {};
    for (const name of order) setOwn(modelSummaries, name, models.get(name)!.toStats());
    const durationMs = context.duration_ms ?? (lastEndMs > 0 ? lastEndMs : null);
    const stats = total.toStats();
    const totals: TotalsSummary = {
      ...stats,
      dropped: context.dropped ?? 0,
      unreadable_lines: context.unreadable_lines ?? 0,
      duration_ms: durationMs,
      requests_per_s: durationMs ? Math.round((stats.requests / durationMs) * 1000 * 1000) / 1000 : null,
    };
    const summary: Summary = {
      run_id: context.run_id,
      status: context.status,
      verdict: verdictOf(totals, thresholds),
      totals,
      models: modelSummaries,
      cases: cases.toCases(order),
      thresholds,
    };
    const set: HistogramSet = new Map(order.map((name) => [name, models.get(name)!.histograms]));
    return { summary, histograms: encodeHistogramSet(set), details: buildDetails(order, set, timeline.toTimeline(order)) };
  };

  return { add, finish };
}

/**
 * 'fail' when a sent request did not pass (a failed check or a request error) or a threshold failed.
 * A skipped turn is not judged: the turn that stopped its conversation has already failed.
 */
export function verdictOf(totals: Pick<TotalsSummary, 'failed'>, thresholds: readonly ThresholdResult[]): Verdict {
  return totals.failed > 0 || thresholds.some((t) => !t.pass) ? 'fail' : 'pass';
}

/** The summary with thresholds evaluated later (they are judged on the summary itself), verdict updated. */
export function applyThresholds(summary: Summary, thresholds: ThresholdResult[]): Summary {
  return { ...summary, thresholds, verdict: verdictOf(summary.totals, thresholds) };
}

function orderModels(seen: string[], preferred: readonly string[]): string[] {
  const known = preferred.filter((m) => seen.includes(m));
  const rest = seen.filter((m) => !known.includes(m)).sort((a, b) => a.localeCompare(b));
  return [...known, ...rest];
}
