// histograms.json: encoded per-model histograms, so shards merge exactly and reports need nothing else.
import { MAX_SUMMARY_BYTES, readRunFile } from '../store/run-file.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.js';
import { RUN_FILES } from '../store/run-dir.js';
import { TIMING_METRICS, type HistogramFile, type TimingMetric } from '../domain/summary.js';
import { addHistograms, decodeHistogram, encodeHistogram, type Histogram } from './histogram.js';
import { setOwn } from './own-record.js';

export const HISTOGRAM_FILE_NAME = RUN_FILES.histograms;

/** Decoded form: model → metric → histogram. */
export type HistogramSet = Map<string, Map<TimingMetric, Histogram>>;

export function encodeHistogramSet(set: HistogramSet): HistogramFile {
  const file: HistogramFile = {};
  for (const [model, metrics] of [...set].sort(([a], [b]) => a.localeCompare(b))) {
    const encoded: Partial<Record<TimingMetric, string>> = {};
    for (const metric of TIMING_METRICS) {
      const histogram = metrics.get(metric);
      if (histogram && histogram.totalCount > 0) encoded[metric] = encodeHistogram(histogram);
    }
    setOwn(file, model, encoded);
  }
  return file;
}

export function decodeHistogramFile(file: HistogramFile): HistogramSet {
  const set: HistogramSet = new Map();
  for (const [model, metrics] of Object.entries(file)) {
    const decoded = new Map<TimingMetric, Histogram>();
    for (const metric of TIMING_METRICS) {
      const base64 = metrics[metric];
      if (base64) decoded.set(metric, decodeHistogram(base64));
    }
    set.set(model, decoded);
  }
  return set;
}

/** Adds the histograms of several files (shards) model by model, metric by metric. */
export function mergeHistogramFiles(files: readonly HistogramFile[]): HistogramFile {
  const merged: HistogramSet = new Map();
  for (const file of files) {
    for (const [model, metrics] of decodeHistogramFile(file)) {
      const target = merged.get(model) ?? new Map<TimingMetric, Histogram>();
      for (const [metric, histogram] of metrics) {
        const existing = target.get(metric);
        target.set(metric, existing ? addHistograms([existing, histogram]) : histogram);
      }
      merged.set(model, target);
    }
  }
  return encodeHistogramSet(merged);
}

export async function readHistogramFile(runDir: string): Promise<HistogramFile> {
  const text = readRunFile(join(runDir, HISTOGRAM_FILE_NAME), MAX_SUMMARY_BYTES);
  return JSON.parse(text) as HistogramFile;
}

export async function writeHistogramFile(runDir: string, file: HistogramFile): Promise<string> {
  // Whole or not at all: a half-written histograms.json would merge wrongly.
  return writeFileAtomic(join(runDir, HISTOGRAM_FILE_NAME), `${JSON.stringify(file, null, 2)}\n`);
}
