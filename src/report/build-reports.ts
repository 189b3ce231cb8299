// Builds every report of a run from results.ndjson alone: one streaming pass (thresholds judged in it), then each writer in turn.
import { budgetReadout } from '../credits/budget-readout.js';
import { DEFAULT_GATES, parseFailOn, type Gate } from '../metrics/gates.js';
import type { RunInfo } from '../domain/run.js';
import type { RecordedRunConfig } from '../domain/run-config.js';
import type { Sample } from '../domain/sample.js';
import type { Summary } from '../domain/summary.js';
import { writeHistogramFile } from '../metrics/histogram-file.js';
import type { LoadAnalysis } from '../metrics/load-analysis.js';
import { readResults, type ResultsReadStats } from '../store/results-reader.js';
import { roundToUnits } from '../metrics/round-units.js';
import { createSummarizer } from '../metrics/summarizer.js';
import { answerBoundsOf, goodAnswerOf, goodputSummary, sloOfLoad } from '../metrics/goodput.js';
import { createSweepJudge, rateIndexOf, sweepGating } from '../metrics/sweep.js';
import { createEvidenceCollector } from './evidence.js';
import { collectBetweenSteps, SAMPLES_PER_COLLECTION } from '../metrics/heap-steps.js';
import { createLoadPass, recordedSchedule } from './load-pass.js';
import { createPeoplePass } from './people-pass.js';
import { REPORT_WRITERS } from './registry.js';
import { REPORT_FORMATS, type ReportFormat, type ReportInput, type UnsentItem } from './types.js';
import { isTimeBound } from '../load/index.js';

export interface BuildReportsOptions {
  runDir: string;
  run: RunInfo;
  /**
   * Threshold definitions (key → expressions), judged on the summary's own aggregates; run.json's
   * by default, so `kbbench report DIR` judges them again.
   */
  thresholds?: Readonly<Record<string, readonly string[]>>;
  /** Open-loop starts never sent (they have no result line); defaults to run.json's `dropped`. */
  dropped?: number;
  /** Which files to write; all by default. */
  formats?: readonly ReportFormat[];
  /** The gates (`--fail-on`); run.json's `options.failOn`, else the default gates. */
  failOn?: readonly Gate[];
  /**
   * Items of the plan that have no result line (a run that did not finish), read afresh each call:
   * junit.xml lists them as skipped. Absent when the plan cannot be rebuilt.
   */
  unsent?: () => AsyncIterable<UnsentItem>;
}

export interface BuildReportsResult {
  summary: Summary;
  /** Paths written: histograms.json first, then each report. */
  files: string[];
  /** How reading results.ndjson went (torn and invalid lines). */
  read: ResultsReadStats;
}

/** The price a run was given (run.json config.budget), for money beside credits. */
function creditPriceOf(options: RecordedRunConfig['budget']): { credit_price?: { price: number; currency: string | null } } {
  const price = options.creditPrice;
  if (price === undefined || !Number.isFinite(price) || price < 0) return {};
  return { credit_price: { price, currency: options.currency ?? null } };
}

export async function buildReports(options: BuildReportsOptions): Promise<BuildReportsResult> {
  const { runDir, run } = options;
  const results = readResults(runDir);
  // Past the in-memory case limit, partition files go to a temporary directory inside the run's own.
  const stages = run.load.sweep ? run.load.stages : undefined;
  const schedule = recordedSchedule(run);
  const bounds = answerBoundsOf(sloOfLoad(run.load.spec));
  const summarizer = createSummarizer({
    thresholds: options.thresholds ?? run.thresholds ?? {}, cases: { spillDir: runDir }, goodAnswer: goodAnswerOf(bounds),
    ...(stages ? { checksPartition: (sample: Sample) => rateIndexOf(stages, sample) } : {}),
    ...(schedule ? { loadStages: schedule.stages } : {}),
  });
  const evidence = createEvidenceCollector();
  const loadPass = createLoadPass(runDir, run);
  const people = createPeoplePass(runDir, run);
  const sweep = run.load.sweep && run.load.stages ? createSweepJudge(run.load.sweep, run.load.stages) : null;
  let load;
  let answers = 0;
  let read = 0;
  // What the run (or a former step) left is garbage now: the reports start from what is live.
  collectBetweenSteps();
  try {
    for await (const recorded of results) {
      const sample = people.apply(recorded);
      // An answer is a case's or a turn's line; a failed conversation creation's line (turn null) is none.
      if (sample.case_id !== null || sample.turn !== null) answers += 1;
      summarizer.add(sample);
      evidence.add(sample);
      loadPass.add(sample);
      sweep?.add(sample);
      if (++read % SAMPLES_PER_COLLECTION === 0) collectBetweenSteps();
    }
    load = await loadPass.finish();
    collectBetweenSteps();
  } catch (error) {
    summarizer.discard();
    throw error;
  }
  // A sweep's figures are its stages' (the load pass's); its gate judges the drops of the rates its answer rests on.
  const sweepSummary = sweep ? sweep.finish(load?.stages ?? null) : null;
  const gating = sweepSummary && stages ? sweepGating(sweepSummary) : null;
  const finished = summarizer.finish({
    run_id: run.run_id,
    status: run.status,
    ...(run.abort ? { abort: run.abort } : {}),
    ...failOnOf(options),
    dropped: options.dropped ?? run.dropped ?? 0,
    ...(sweepSummary ? { dropped_gated: sweepSummary.dropped_gated ?? 0 } : {}),
    ...(gating ? { checks_gated: gating.gated, no_slo_rate: gating.noSloRate } : {}),
    unreadable_lines: results.stats.torn_lines + results.stats.invalid_lines,
    missing: missingAnswers(run, answers, failOnOf(options).fail_on),
    duration_ms: run.duration_ms,
    model_order: run.plan.models,
    ...(run.config.grader.judgeSample !== undefined ? { judge_sample: run.config.grader.judgeSample } : {}),
    ...creditPriceOf(run.config.budget),
  });
  collectBetweenSteps();
  try {
    const loaded = withBudget(withLoad(finished.summary, load), run.config.budget);
    const good = { ...loaded, goodput: goodputSummary(bounds, loaded.stages, run.config.grader.judgeSample) };
    const swept = sweepSummary ? { ...good, sweep: sweepSummary } : good;
    // Every number in its unit (credits 1e-5, ms 1e-3): summary.json carries no float noise.
    const summary: Summary = roundToUnits(people.finish(run.outputs ? { ...swept, outputs: run.outputs } : swept));
    const files = [await writeHistogramFile(runDir, finished.histograms)];
    const input: ReportInput = {
      runDir, run, summary, details: finished.details, load, evidence: evidence.result(), cases: finished.cases, samples: () => readResults(runDir),
      ...(options.unsent ? { unsent: options.unsent } : {}),
    };
    for (const format of options.formats ?? REPORT_FORMATS) {
      files.push(await REPORT_WRITERS[format].write(input));
      collectBetweenSteps();
    }
    return { summary, files, read: { ...results.stats } };
  } finally {
    finished.cases.dispose();
  }
}

/**
 * Planned answers a run that says it walked its whole plan does not have: a completed closed loop
 * (sequential or shuffled: a weighted mix draws, and a time-bound loop stops by its clock) sends
 * every one of run.json's `plan.requests`, each with its line. Fewer lines is a cut results.ndjson.
 */
export function missingAnswers(run: Pick<RunInfo, 'status' | 'load' | 'plan' | 'regrade'>, answers: number, gates: readonly Gate[] = DEFAULT_GATES): number {
  const spec = run.load.spec;
  if (run.status !== 'completed' || isTimeBound(spec) || spec.mix === 'weighted') return 0;
  // A regrade's questions its source never asked are known, not a cut file: `--fail-on` without `missing` allows them (run.json `regrade.never_asked` counts them).
  if (run.regrade !== undefined && !gates.includes('missing')) return 0;
  return Math.max(0, run.plan.requests - answers);
}

/** The flag's gates, else the ones the run was started with (run.json), else the default. */
function failOnOf(options: BuildReportsOptions): { fail_on?: readonly Gate[] } {
  if (options.failOn) return { fail_on: options.failOn };
  const recorded = options.run.config.gates.failOn;
  if (recorded !== undefined) {
    const parsed = parseFailOn(recorded.join(',') || 'none');
    if (parsed) return { fail_on: parsed };
  }
  return {};
}

/** summary.json `credits.budget`: the run's limits and any overshoot, judged on the whole run's spend. */
function withBudget(summary: Summary, options: RecordedRunConfig['budget']): Summary {
  if (!summary.credits) return summary;
  const budget = budgetReadout(options, summary.totals.credits_used, summary.credits.remaining.credits);
  return budget ? { ...summary, credits: { ...summary.credits, budget } } : summary;
}

/** summary.json's load fields: stages and knee for an open loop, the harness's state whenever there is a timeline. */
function withLoad(summary: Summary, load: LoadAnalysis | null): Summary {
  if (!load) return summary;
  return { ...summary, ...(load.stages ? { stages: load.stages, knee: load.knee } : {}), harness: load.harness };
}
