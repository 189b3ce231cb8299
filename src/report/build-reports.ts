// Builds every report of a run from results.ndjson alone: one streaming pass, then each writer in turn.
import type { RunInfo, ThresholdResult } from '../domain/run.js';
import type { Summary } from '../domain/summary.js';
import { writeHistogramFile } from '../metrics/histogram-file.js';
import { readResults, type ResultsReadStats } from '../store/results-reader.js';
import { applyThresholds, createSummarizer } from '../metrics/summarizer.js';
import { createEvidenceCollector } from './evidence.js';
import { REPORT_WRITERS } from './registry.js';
import { REPORT_FORMATS, type ReportFormat, type ReportInput } from './types.js';

export interface BuildReportsOptions {
  runDir: string;
  run: RunInfo;
  /** Thresholds already evaluated. */
  thresholds?: ThresholdResult[];
  /** Or: evaluate them on the fresh summary (thresholds are judged on its numbers); appended to `thresholds`. */
  evaluateThresholds?: (summary: Summary) => ThresholdResult[];
  /** Open-loop starts never sent (they have no result line); defaults to run.json's `dropped`. */
  dropped?: number;
  /** Which files to write; all by default. */
  formats?: readonly ReportFormat[];
}

export interface BuildReportsResult {
  summary: Summary;
  /** Paths written: histograms.json first, then each report. */
  files: string[];
  /** How reading results.ndjson went (torn and invalid lines). */
  read: ResultsReadStats;
}

export async function buildReports(options: BuildReportsOptions): Promise<BuildReportsResult> {
  const { runDir, run } = options;
  const results = readResults(runDir);
  const summarizer = createSummarizer();
  const evidence = createEvidenceCollector();
  for await (const sample of results) {
    summarizer.add(sample);
    evidence.add(sample);
  }
  const finished = summarizer.finish({
    run_id: run.run_id,
    status: run.status,
    thresholds: options.thresholds ?? [],
    dropped: options.dropped ?? run.dropped ?? 0,
    unreadable_lines: results.stats.torn_lines + results.stats.invalid_lines,
    duration_ms: run.duration_ms,
    model_order: run.plan.models,
  });
  let summary = finished.summary;
  if (options.evaluateThresholds) {
    summary = applyThresholds(summary, [...summary.thresholds, ...options.evaluateThresholds(summary)]);
  }
  const files = [await writeHistogramFile(runDir, finished.histograms)];
  const input: ReportInput = {
    runDir, run, summary, details: finished.details, evidence: evidence.result(), samples: () => readResults(runDir),
  };
  for (const format of options.formats ?? REPORT_FORMATS) files.push(await REPORT_WRITERS[format].write(input));
  return { summary, files, read: { ...results.stats } };
}
