// The streaming accumulator: Samples in one at a time; a Summary with its thresholds judged (plus histograms, chart data, case table) out.
import { RunCredits } from '../credits/run-credits.js';
import { DEFAULT_GATES, verdictFor, type Gate } from './gates.js';
import { createThresholdSinks, type ThresholdSinks } from './thresholds-sinks.js';
import type { RunInfo, RunStatus, ThresholdResult } from '../domain/run.js';
import { isNotSampled, type Sample } from '../domain/sample.js';
import type { CaseSummary, GatesSummary, HistogramFile, ModelSummary, Summary, TotalsSummary, Verdict } from '../domain/summary.js';
import { createChecksGate, type ChecksGateCounts } from './checks-gate.js';
import { createCaseStats, type CaseStatsOptions } from './case-stats.js';
import { withDegrading, type CaseTable } from './case-table.js';
import { buildDetails, type RunDetails } from './details.js';
import { encodeHistogramSet, type HistogramSet } from './histogram-file.js';
import { setOwn } from './own-record.js';
import { createRequestStats, type RequestStatsAccumulator } from './request-stats.js';
import { createFailedItems } from './failed-items.js';
import { createTagCredits } from './tag-credits.js';
import { createGraderStats } from './grader-stats.js';
import { createReusedAnswers } from './reused-answers.js';
import { goodAnswerOf, type GoodAnswer } from './goodput.js';
import { createLoadTrend, trendKey } from './load-trend.js';
import type { StageWindow } from './stage-window.js';

export interface SummarizerOptions {
  /**
   * Threshold definitions as run.json stores them (`{ 'ttfc_ms{model:x}': ['p(95)<2000'] }`),
   * judged on the same accumulators summary.json is written from. Throws InputError when invalid.
   */
  thresholds?: Readonly<Record<string, readonly string[]>>;
  /** Bounds of the per-case table and where it spills (the run directory); see case-stats.ts. */
  cases?: CaseStatsOptions;
  /** Which part of the run a result belongs to, for the `checks` gate (a sweep's rate index; sweep.ts). */
  checksPartition?: (sample: Sample) => number;
  /** Which answers count in goodput (goodput.ts); those that passed their checks when absent. */
  goodAnswer?: GoodAnswer;
  /** The run's stages (or sweep rates): a question whose pass rate falls across them is degrades_under_load. */
  loadStages?: readonly StageWindow[];
}

export interface SummaryContext {
  run_id: string;
  status: RunStatus;
  /** Why an aborted run stopped: a threshold's abort is a failure, an error limit's leaves it incomplete. */
  abort?: RunInfo['abort'];
  /** The gates to judge (`--fail-on`); the default gates when absent. Only `checks` and `thresholds` apply to a run's own summary. */
  fail_on?: readonly Gate[];
  /** Open-loop starts never sent (the runner counts them; they have no result line). */
  dropped?: number;
  /**
   * Of the dropped starts, those the default `dropped` gate judges; all when absent. A sweep's are
   * those of the rates its answer rests on (metrics/sweep.ts, `sweepGatedDrops`).
   */
  dropped_gated?: number;
  /** The parts (see `checksPartition`) whose failed checks the verdict gates; all when absent. */
  checks_gated?: (partition: number) => boolean;
  /** A sweep with SLOs found no rate that met them: the verdict fails for that. */
  no_slo_rate?: boolean;
  /** Lines of results.ndjson that could not be read. */
  unreadable_lines?: number;
  /** Planned answers with no result line in a run that says it walked its whole plan (build-reports.ts). */
  missing?: number;
  /** run.json's duration; when null the samples' offsets give one. */
  duration_ms?: number | null;
  /** Models in the order the report should list them (the plan's); others follow alphabetically. */
  model_order?: readonly string[];
  /** run.json's --judge-sample: the share of answers whose model-graded checks were graded. */
  judge_sample?: number;
  /** run.json's --credit-price and --currency: money beside credits. */
  credit_price?: { price: number; currency: string | null };
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
  // The reconciliation's sorted runs go where the case table spills (the run directory).
  const credits = new RunCredits(options.cases?.spillDir !== undefined ? { spillDir: options.cases.spillDir } : {});
  const failures = createFailedItems();
  const graders = createGraderStats();
  const reused = createReusedAnswers();
  // One accumulator per tag: tags are a suite's small vocabulary, bounded all the same.
  const tags = new Map<string, RequestStatsAccumulator>();
  const tagCredits = createTagCredits(MAX_TAGS);
  // Unscoped and model-only thresholds read `total` and `models` themselves (k6: one set of aggregates).
  const sinks: ThresholdSinks = createThresholdSinks(options.thresholds ?? {}, { total, model: (name) => models.get(name) });
  const checksGate = createChecksGate(sinks.coveredByPassRate, options.checksPartition);
  let lastEndMs = 0;
  let starts = 0;
  let scheduledStarts = 0;
  let lateStarts = 0;
  let warmup = 0;
  let good = 0;
  let notSampled = 0;
  const goodAnswer = options.goodAnswer ?? goodAnswerOf([]);
  const trend = options.loadStages ? createLoadTrend(options.loadStages) : null;

  const add = (sample: Sample): void => {
    // Warmup requests were sent and recorded; statistics and thresholds start after them.
    if (sample.warmup === true) {
      if (sample.endpoint !== 'create') warmup += 1;
      return;
    }
    if (isStart(sample)) {
      starts += 1;
      if (sample.scheduled_delay_ms !== undefined) scheduledStarts += 1;
      if ((sample.scheduled_delay_ms ?? 0) > LATE_START_MS) lateStarts += 1;
    }
    let model = models.get(sample.model);
    if (!model) {
      model = createRequestStats();
      models.set(sample.model, model);
    }
    model.add(sample);
    total.add(sample);
    sinks.add(sample);
    checksGate.add(sample);
    cases.add(sample);
    credits.add(sample);
    failures.add(sample);
    graders.add(sample);
    reused.add(sample);
    if (goodAnswer(sample)) good += 1;
    if (isNotSampled(sample.not_judged)) notSampled += 1;
    trend?.add(sample);
    if (Array.isArray(sample.tags)) {
      addTags(tags, sample);
      tagCredits.add(sample);
    }
    lastEndMs = Math.max(lastEndMs, sample.offset_ms + (sample.latency_ms ?? 0));
  };

  const finish = (context: SummaryContext): SummarizerResult => {
    const order = orderModels([...models.keys()], context.model_order ?? []);
    // Dropped starts: never sent, or sent over 1 s late; their rate is over the starts the schedule planned.
    const unsent = context.dropped ?? 0;
    const dropped = unsent + lateStarts;
    const planned = starts + unsent;
    const droppedRate = planned > 0 && (unsent > 0 || scheduledStarts > 0) ? Math.round((dropped / planned) * 10_000) / 10_000 : null;
    const thresholds = sinks.evaluate({ dropped: { count: dropped, planned } });
    const degrades = trend?.finish() ?? null;
    const caseResult = cases.finish(order, degrades?.keys);
    if (degrades) markDegrading(caseResult.cases, degrades.keys);
    const perQuestion = caseResult.questions;
    const modelSummaries: Record<string, ModelSummary> = {};
    for (const name of order) setOwn(modelSummaries, name, { ...models.get(name)!.toStats(), ...perQuestion.models.get(name) });
    const durationMs = context.duration_ms ?? (lastEndMs > 0 ? lastEndMs : null);
    const stats = total.toStats();
    const reusedResult = reused.result();
    const totals: TotalsSummary = {
      ...stats,
      dropped, dropped_late: lateStarts, dropped_rate: droppedRate,
      interrupted: stats.errors_by_kind.E_INTERRUPTED ?? 0,
      unreadable_lines: context.unreadable_lines ?? 0,
      ...(context.missing ? { missing: context.missing } : {}),
      duration_ms: durationMs,
      requests_per_s: durationMs ? Math.round((stats.requests / durationMs) * 1000 * 1000) / 1000 : null,
      warmup,
      ...(reusedResult ? { reused: reusedResult.answers } : {}),
      starts,
      starts_per_s: durationMs ? Math.round((starts / durationMs) * 1000 * 1000) / 1000 : null,
      good_answers: good,
      goodput: durationMs ? Math.round((good / durationMs) * 1000 * 1000) / 1000 : null,
      ...(notSampled > 0 ? { not_sampled: notSampled } : {}),
    };
    const gated = context.dropped_gated !== undefined ? { gated: context.dropped_gated } : {};
    const gates = judgeGates(context.fail_on ?? DEFAULT_GATES, checksGate.counts(context.checks_gated), thresholds, (totals.not_judged ?? 0) - notSampled, { count: dropped, rate: droppedRate, ...gated }, context.no_slo_rate === true);
    const summary: Summary = {
      run_id: context.run_id,
      status: context.status,
      // What the plan promised and the results lack was never judged, nor is a run whose every
      // answer went unjudged (or that has none): no set of gates passes a run that judged nothing.
      verdict: context.missing || judgedNothing(totals) ? 'incomplete' : verdictOf(context, gates),
      gates,
      totals,
      models: modelSummaries,
      cases: caseResult.cases,
      cases_truncated: caseResult.truncated,
      thresholds,
      credits: { ...credits.finish(order, context.credit_price), ...(reusedResult ? { saved: reusedResult.credits_saved } : {}) },
      ...(reusedResult ? { reused: reusedResult } : {}),
      failures: failures.result(),
      ...(perQuestion.pairs.length > 0 ? { model_pairs: perQuestion.pairs } : {}),
      ...(perQuestion.flaky.total > 0 ? { flaky: perQuestion.flaky } : {}),
      ...(perQuestion.failedToAnswer.total > 0 ? { failed_to_answer: perQuestion.failedToAnswer } : {}),
      ...(degrades && degrades.list.total > 0 ? { degrades_under_load: degrades.list } : {}),
      ...(context.judge_sample !== undefined ? { judge_sample: { share: context.judge_sample, not_sampled: notSampled } } : {}),
    };
    const grading = graders.result();
    if (grading) summary.grading = grading;
    if (tags.size > 0) {
      summary.tags = Object.create(null) as Record<string, ModelSummary>;
      for (const name of [...tags.keys()].sort()) setOwn(summary.tags, name, tags.get(name)!.toStats());
      const byModel = tagCredits.result(order);
      if (byModel) summary.tag_credits = byModel;
    }
    const set: HistogramSet = new Map(order.map((name) => [name, models.get(name)!.histograms]));
    return { summary, histograms: encodeHistogramSet(set), details: buildDetails(order, set), cases: withDegrading(caseResult.table, degrades?.keys, trendKey) };
  };

  const discard = (): void => {
    cases.discard();
    credits.dispose();
  };
  return { add, finish, discard };
}

/** A cell whose pass rate fell with the load is that, whatever its repeats' counts say. */
function markDegrading(cases: readonly CaseSummary[], keys: ReadonlySet<string>): void {
  if (keys.size === 0) return;
  for (const c of cases) {
    for (const [model, cell] of Object.entries(c.models)) if (keys.has(trendKey(c.key, model))) cell.stability = 'degrades_under_load';
  }
}

/** No answer was judged: none was recorded, or a grader could judge none of them. */
export function judgedNothing(totals: Pick<TotalsSummary, 'requests' | 'not_judged'>): boolean {
  return totals.requests - (totals.not_judged ?? 0) <= 0;
}

/** A start is a case, or a whole thread: a case's request, or a thread's first turn (sent or skipped). */
export function isStart(sample: Sample): boolean {
  if (sample.endpoint === 'create') return false;
  return sample.case_id !== null || sample.turn === 1;
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
 * The gates a run's own results can fail: `checks` when a sent request did not pass outside every
 * pass_rate threshold (and was not expected to fail), `thresholds` when one failed. A skipped turn
 * is not judged: the turn that stopped its conversation has already failed.
 */
export function judgeGates(failOn: readonly Gate[], checks: ChecksGateCounts, thresholds: readonly ThresholdResult[], notJudged = 0, dropped?: { count: number; rate: number | null; gated?: number }, noSloRate = false): GatesSummary {
  const thresholdsFailed = thresholds.filter((t) => !t.pass).length;
  const failed: Gate[] = [];
  if (failOn.includes('checks') && checks.failed > 0) failed.push('checks');
  // A sweep's SLOs are its thresholds: one that found no rate meeting them has no answer, and fails for it.
  if (failOn.includes('thresholds') && (thresholdsFailed > 0 || noSloRate)) failed.push('thresholds');
  // A run that did not deliver its planned arrivals is not a pass, unless a `dropped` threshold of
  // the suite says how many it allows (that threshold then judges them, under `thresholds`).
  const judgedByThreshold = thresholds.some((t) => t.metric === 'dropped' || t.metric.startsWith('dropped{'));
  if (failOn.includes('dropped') && dropped !== undefined && (dropped.gated ?? dropped.count) > 0 && !judgedByThreshold) failed.push('dropped');
  // Not judged is not failed: the `judged` gate leaves the verdict incomplete instead.
  const incomplete: Gate[] = failOn.includes('judged') && notJudged > 0 ? ['judged'] : [];
  const gates: GatesSummary = {
    fail_on: [...failOn], failed, checks, thresholds_failed: thresholdsFailed, ...(incomplete.length > 0 ? { incomplete } : {}), ...(noSloRate ? { no_slo_rate: true as const } : {}),
  };
  if (dropped !== undefined && dropped.rate !== null) {
    gates.dropped = { count: dropped.count, rate: dropped.rate, judged_by_threshold: judgedByThreshold, ...(dropped.gated !== undefined ? { gated: dropped.gated } : {}) };
  }
  return gates;
}

/** A start sent later than this after its intended time did not arrive as planned: it counts as dropped. */
export const LATE_START_MS = 1000;

/** The run's status and its gates, by the one rule (gates.ts). */
export function verdictOf(run: Pick<SummaryContext, 'status' | 'abort'>, gates: Pick<GatesSummary, 'failed' | 'incomplete'>): Verdict {
  return verdictFor(run, gates.failed.length > 0, (gates.incomplete?.length ?? 0) > 0);
}

function orderModels(seen: string[], preferred: readonly string[]): string[] {
  const known = preferred.filter((m) => seen.includes(m));
  const rest = seen.filter((m) => !known.includes(m)).sort((a, b) => a.localeCompare(b));
  return [...known, ...rest];
}
