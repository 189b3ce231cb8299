// The streaming accumulator: Samples in one at a time; a Summary with its thresholds judged (plus histograms, chart data, case table) out.
import { createThresholdSinks, type ThresholdSinks } from '../checks/thresholds-sinks.js';
import type { RunStatus, ThresholdResult } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { HistogramFile, ModelSummary, Summary, TotalsSummary, Verdict } from '../domain/summary.js';
import { createCaseStats, type CaseStatsOptions } from './case-stats.js';
import type { CaseTable } from './case-table.js';
import { buildDetails, type RunDetails } from './details.js';
import { encodeHistogramSet, type HistogramSet } from './histogram-file.js';
import { setOwn } from './own-record.js';
import { createRequestStats, type RequestStatsAccumulator } from './request-stats.js';
import { createFailedItems } from './failed-items.js';
import { createTimeline } from './timeline.js';

export interface SummarizerOptions {
  /**
   * Threshold definitions as run.json stores them (`{ 'ttfc_ms{model:x}': ['p(95)<2000'] }`),
   * judged on the same accumulators summary.json is written from. Throws InputError when invalid.
   */
  thresholds?: Readonly<Record<string, readonly string[]>>;
  /** Bounds of the per-case table and where it spills (the run directory); see case-stats.ts. */
  cases?: CaseStatsOptions;
}

export interface SummaryContext {
  run_id: string;
  status: RunStatus;
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
  /** Every case × model row (cases.csv, junit.xml); past the in-memory limit it is on disk until dispose(). */
  cases: CaseTable;
}

export interface Summarizer {
  add(sample: Sample): void;
  finish(context: SummaryContext): SummarizerResult;
  /** Deletes any temporary case files when finish() will not be called (reading the results failed). */
  discard(): void;
}

export function createSummarizer(options: SummarizerOptions = {}): Summarizer {
  const total = createRequestStats();
  const models = new Map<string, RequestStatsAccumulator>();
  const cases = createCaseStats(options.cases);
  const timeline = createTimeline();
  const failures = createFailedItems();
  // One accumulator per tag: tags are a suite's small vocabulary, bounded all the same.
  const tags = new Map<string, RequestStatsAccumulator>();
  // Unscoped and model-only thresholds read `total` and `models` themselves (k6: one set of aggregates).
  const sinks: ThresholdSinks = createThresholdSinks(options.thresholds ?? {}, { total, model: (name) => models.get(name) });
  let lastEndMs = 0;

  const add = (sample: Sample): void => {
    let model = models.get(sample.model);
    if (!model) {
      model = createRequestStats();
      models.set(sample.model, model);
    }
    model.add(sample);
    total.add(sample);
    sinks.add(sample);
    cases.add(sample);
    timeline.add(sample);
    failures.add(sample);
    if (Array.isArray(sample.tags)) addTags(tags, sample);
    lastEndMs = Math.max(lastEndMs, sample.offset_ms + (sample.latency_ms ?? 0));
  };

  const finish = (context: SummaryContext): SummarizerResult => {
    const order = orderModels([...models.keys()], context.model_order ?? []);
    const thresholds = sinks.evaluate();
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
    const caseResult = cases.finish(order);
    // Checks are judged per case × model (case stats): a `repeat_pass: k/n` cell passes on k passed repeats.
    const judged = order.some((model) => caseResult.table.totals(model).tests > 0);
    const failedCells = order.reduce((n, model) => n + caseResult.table.totals(model).failure + caseResult.table.totals(model).error, 0);
    const summary: Summary = {
      run_id: context.run_id,
      status: context.status,
      verdict: verdictOf(judged ? { failed: failedCells } : totals, thresholds),
      totals,
      models: modelSummaries,
      cases: caseResult.cases,
      cases_truncated: caseResult.truncated,
      thresholds,
      failures: failures.result(),
    };
    if (tags.size > 0) {
      summary.tags = Object.create(null) as Record<string, ModelSummary>;
      for (const name of [...tags.keys()].sort()) setOwn(summary.tags, name, tags.get(name)!.toStats());
    }
    const set: HistogramSet = new Map(order.map((name) => [name, models.get(name)!.histograms]));
    return { summary, histograms: encodeHistogramSet(set), details: buildDetails(order, set, timeline.toTimeline(order)), cases: caseResult.table };
  };

  return { add, finish, discard: () => cases.discard() };
}

/** More distinct tags than this are not summarised (a tag per row is data, not a vocabulary). */
export const MAX_TAGS = 200;

function addTags(tags: Map<string, RequestStatsAccumulator>, sample: Sample): void {
  for (const tag of sample.tags!) {
    if (typeof tag !== 'string') continue;
    let stats = tags.get(tag);
    if (stats === undefined) {
      if (tags.size >= MAX_TAGS) continue;
      stats = createRequestStats();
      tags.set(tag, stats);
    }
    stats.add(sample);
  }
}

/**
 * 'fail' when a sent request did not pass (a failed check or a request error) or a threshold failed.
 * A skipped turn is not judged: the turn that stopped its conversation has already failed.
 */
export function verdictOf(totals: Pick<TotalsSummary, 'failed'>, thresholds: readonly ThresholdResult[]): Verdict {
  return totals.failed > 0 || thresholds.some((t) => !t.pass) ? 'fail' : 'pass';
}

function orderModels(seen: string[], preferred: readonly string[]): string[] {
  const known = preferred.filter((m) => seen.includes(m));
  const rest = seen.filter((m) => !known.includes(m)).sort((a, b) => a.localeCompare(b));
  return [...known, ...rest];
}
