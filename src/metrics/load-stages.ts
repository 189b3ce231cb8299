// summary.json `stages` and `knee`, read from the timeline's lines in order (streaming: one running
// sum per stage and one per 5-second window, whatever the run's length).
import type { Sample } from '../domain/sample.js';
import type { TimelineLine } from '../domain/timeline.js';
import type { KneeSummary, StagePercentiles, StageSummary } from '../domain/load.js';
import { IntervalSum } from './interval-bucket.js';
import { intendedStartMs, rateInStages, type StageWindow } from './stage-window.js';
import type { GoodAnswer } from './goodput.js';

/** The knee's windows, and the answers a window needs before it is judged (fewer is noise). */
export const KNEE_WINDOW_MS = 5000;
const MIN_WINDOW_ANSWERS = 3;
const BASELINE_WINDOWS = 2;

export interface LoadStagesAccumulator {
  add(line: TimelineLine): void;
  /**
   * A result, put in the stage in which its unit was intended to start, whenever it finished: its
   * requests, errors, pass rate, credits and percentiles are that stage's (the lines give starts,
   * drops and rates). Without results (none fed) the lines' completions are used.
   */
  addSample(sample: Sample): void;
  finish(): { stages: StageSummary[]; knee: KneeSummary | null };
}

export function createLoadStages(stages: readonly StageWindow[], goodAnswer?: GoodAnswer): LoadStagesAccumulator {
  const sums = stages.map(() => new IntervalSum());
  const byStart = stages.map(() => new IntervalSum());
  /** Answer characters of the requests that started in each stage (output throughput). */
  const charsByStart = stages.map(() => 0);
  let samples = 0;
  let lastEndMs = Number.NEGATIVE_INFINITY;
  const knee = createKneeFinder(risingEndMs(stages));

  const lastEnd = stages.at(-1)?.end_ms ?? 0;
  /**
   * The stage holding a line's middle: a wall-clock second straddles a boundary, and its starts
   * cannot be split. The seconds straddling the first stage's start and the last's end belong to
   * them; seconds before the first stage (a sweep's probes) belong to none.
   */
  const stageOf = (line: TimelineLine): number => {
    const midMs = line.offset_ms + 500;
    if (midMs >= lastEnd) return line.offset_ms < lastEnd ? stages.length - 1 : -1;
    // (Offsets are kept to the microsecond: a second ending exactly at the first stage's start is before it.)
    return stages.findIndex((s, i) => midMs < s.end_ms && (i === 0 ? line.offset_ms + 1000 - s.start_ms > 0.01 : midMs >= s.start_ms));
  };

  return {
    add(line) {
      lastEndMs = Math.max(lastEndMs, line.offset_ms + 1000);
      const i = stageOf(line);
      if (i >= 0) sums[i]!.addLine(line);
      knee.add(line);
    },
    addSample(sample) {
      // Its intended start (open loop), else when it was sent.
      const startMs = intendedStartMs(sample);
      // Nothing starts after the schedule ends but the later turns of a thread started in it: its last stage's.
      const i = startMs >= lastEnd && stages.length > 0 ? stages.length - 1 : stages.findIndex((s) => startMs >= s.start_ms && startMs < s.end_ms);
      if (i < 0) return;
      samples += 1;
      byStart[i]!.addSample(sample, goodAnswer?.(sample));
      if (sample.outcome === 'ok' && Number.isFinite(sample.chars)) charsByStart[i]! += sample.chars;
    },
    finish() {
      const found = knee.finish();
      // A closed loop's knee is where its workers turned it: said beside the rate they achieved.
      const workers = found !== null && stages.some((s) => s.target_unit === 'workers')
        ? { workers: Math.round(rateInStages(stages, Math.min(found.at_ms + found.window_ms / 2, (risingEndMs(stages) ?? lastEnd) - 1))) }
        : {};
      return { stages: stages.map((s, i) => stageSummary(s, sums[i]!, lastEndMs, samples > 0 ? { sum: byStart[i]!, chars: charsByStart[i]! } : null)), knee: found && { ...found, ...workers } };
    },
  };
}

function stageSummary(stage: StageWindow, lines: IntervalSum, lastEndMs: number, byStart: { sum: IntervalSum; chars: number } | null): StageSummary {
  const started = byStart?.sum ?? null;
  // A run stopped inside a stage is judged on the part it ran.
  const coveredMs = Math.max(0, Math.min(stage.end_ms, lastEndMs) - stage.start_ms);
  const ratio = (a: number, b: number): number | null => (b > 0 ? round4(a / b) : null);
  // Results by the stage they started in when known; else by the second they finished in.
  const sum = started ?? lines;
  return {
    index: stage.index, from_rate: stage.from_rate, to_rate: stage.to_rate, ...(stage.target_unit ? { target_unit: stage.target_unit } : {}),
    start_ms: stage.start_ms, end_ms: stage.end_ms,
    starts: lines.starts, dropped: lines.dropped, requests: sum.completed, errors: sum.errorCount, errors_by_kind: { ...sum.errors },
    achieved_rate: coveredMs > 0 ? round4(lines.starts / (coveredMs / 1000)) : null,
    error_rate: ratio(sum.errorCount, sum.completed),
    pass_rate: ratio(sum.passed, sum.completed),
    ttfc_ms: percentiles(sum, 'ttfc_ms'),
    latency_ms: percentiles(sum, 'latency_ms'),
    corrected_latency_ms: percentiles(sum, 'corrected_latency_ms'),
    inter_chunk_ms: percentiles(sum, 'inter_chunk_ms'),
    output_chars_per_s: byStart !== null && coveredMs > 0 ? Math.round((byStart.chars / (coveredMs / 1000)) * 10) / 10 : null,
    // Throughput and goodput over the same seconds: a service answering fast but wrong keeps one and loses the other.
    throughput: perSecond(sum.ok, coveredMs),
    goodput: sum.good === null ? null : perSecond(sum.good, coveredMs),
    credits_used: round5(sum.creditUnits / 100_000),
    credits_per_min: coveredMs > 0 ? round5(sum.creditUnits / 100_000 / (coveredMs / 60_000)) : null,
  };
}

function percentiles(sum: IntervalSum, metric: 'ttfc_ms' | 'latency_ms' | 'corrected_latency_ms' | 'inter_chunk_ms'): StagePercentiles | null {
  const p = sum.percentiles(metric);
  return p ? { p50: p.p50, p95: p.p95, p99: p.p99 } : null;
}

/**
 * Where the rising part of the run ends: the end of the stage where the highest target is first
 * reached, when some stage ramps up; null for a run with no ramp (a constant rate has no knee).
 */
export function risingEndMs(stages: readonly StageWindow[]): number | null {
  if (!stages.some((s) => s.to_rate > s.from_rate)) return null;
  const peak = Math.max(...stages.map((s) => s.to_rate));
  return stages.find((s) => s.to_rate === peak)!.end_ms;
}

interface Window {
  startMs: number;
  sum: IntervalSum;
}

/**
 * The knee: over 5-second windows of the rising part, the lowest achieved rate at which p95
 * latency (corrected when the run has it) has doubled against the first windows, or errors pass
 * 1%, or the pass rate fell 5 points.
 */
function createKneeFinder(endMs: number | null) {
  const baseline: Window[] = [];
  let current: Window | null = null;
  let best: KneeSummary | null = null;
  let lastCrossed = false;
  let base: { metric: 'corrected_latency_ms' | 'latency_ms'; p95: number; passRate: number } | null = null;

  const judge = (w: Window): void => {
    if (w.sum.ok + w.sum.errorCount < MIN_WINDOW_ANSWERS) return;
    if (!base) {
      baseline.push(w);
      if (baseline.length < BASELINE_WINDOWS) return;
      const sum = new IntervalSum();
      for (const b of baseline) sum.addSummed(b.sum);
      const metric = sum.percentileMs('corrected_latency_ms', 95) !== null ? 'corrected_latency_ms' : 'latency_ms';
      base = { metric, p95: sum.percentileMs(metric, 95) ?? 0, passRate: sum.completed > 0 ? sum.passed / sum.completed : 1 };
      return;
    }
    // A window is divided by the seconds it covered: a run stopped 1 s into a window ran 1 s of it, not 5.
    const coveredS = Math.max(1, Math.min(w.sum.seconds, KNEE_WINDOW_MS / 1000));
    const partial = coveredS < KNEE_WINDOW_MS / 1000;
    const rate = round4(w.sum.starts / coveredS);
    const p95 = w.sum.percentileMs(base.metric, 95);
    const errorRate = w.sum.completed > 0 ? w.sum.errorCount / w.sum.completed : 0;
    const passRate = w.sum.completed > 0 ? w.sum.passed / w.sum.completed : base.passRate;
    const by: KneeSummary['by'][] = [];
    if (p95 !== null && base.p95 > 0 && p95 >= 2 * base.p95) by.push('latency');
    if (errorRate > 0.01) by.push('errors');
    if (passRate < base.passRate - 0.05) by.push('pass_rate');
    const crossedBefore = lastCrossed;
    lastCrossed = by.length > 0;
    if (by.length === 0) return;
    // A partial window (the run stopped, or the rise ended, inside it) never names the knee alone.
    if (partial && !crossedBefore) return;
    if (best !== null && best.rate_per_s <= rate) return;
    best = {
      rate_per_s: rate, by: by[0]!, reasons: by, at_ms: w.startMs, window_ms: KNEE_WINDOW_MS,
      latency_metric: base.metric, baseline_p95_ms: base.p95, p95_ms: p95,
      baseline_pass_rate: round4(base.passRate), pass_rate: round4(passRate), error_rate: round4(errorRate),
    };
  };

  return {
    add(line: TimelineLine): void {
      if (endMs === null || line.offset_ms + 500 >= endMs) return;
      const startMs = Math.floor(Math.max(0, line.offset_ms + 500) / KNEE_WINDOW_MS) * KNEE_WINDOW_MS;
      if (current && current.startMs !== startMs) {
        judge(current);
        current = null;
      }
      current ??= { startMs, sum: new IntervalSum() };
      current.sum.addLine(line);
    },
    finish(): KneeSummary | null {
      if (current) judge(current);
      current = null;
      return best;
    },
  };
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;
const perSecond = (n: number, ms: number): number | null => (ms > 0 ? round4(n / (ms / 1000)) : null);
const round5 = (x: number): number => Math.round(x * 100_000) / 100_000;
