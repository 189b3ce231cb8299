// One pass over a run's timeline lines: summary.json's stages, knee and harness saturation, and
// the series report.html's Load section draws (bounded: past a limit, neighbouring points merge).
import type { HarnessSaturation, KneeSummary, StageSummary } from '../domain/load.js';
import type { Sample } from '../domain/sample.js';
import type { TimelineLine } from '../domain/timeline.js';
import { createHarnessSaturation } from './harness-saturation.js';
import { createLoadStages } from './load-stages.js';
import type { StageWindow } from './stage-window.js';
import type { GoodAnswer } from './goodput.js';

/** One point of the Load section's charts: per-second rates over `seconds` seconds. */
export interface LoadPoint {
  /** Start of the point's span, seconds since the run's start. */
  t_s: number;
  seconds: number;
  target_rate: number | null;
  achieved_rate: number;
  completed_rate: number;
  in_flight: number;
  errors: Record<string, number>;
  /** Latency percentiles (answers): the largest per-second value when points merged. */
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  latency_p99_ms: number | null;
  corrected_p50_ms: number | null;
  corrected_p95_ms: number | null;
  corrected_p99_ms: number | null;
  /** TTFC and inter-chunk latency (ITL) of the answers finished in the span: the largest per-second value when points merged. */
  ttfc_p50_ms: number | null;
  ttfc_p95_ms: number | null;
  itl_p50_ms: number | null;
  itl_p95_ms: number | null;
  /** The oldest unit in flight: how long it had waited from its intended start (ms). */
  in_flight_oldest_ms: number | null;
  /** Goodput (goodput.ts): good answers finished per second; null when the lines predate it. */
  good_rate: number | null;
}

export interface LoadAnalysis {
  stages: StageSummary[] | null;
  knee: KneeSummary | null;
  harness: HarnessSaturation;
  series: LoadPoint[];
  /** True when the lines were rebuilt from results.ndjson (no in-flight, target or loop delay). */
  rebuilt: boolean;
}

export interface LoadAnalysisOptions {
  /** The open loop's stages; null for a closed loop (no stages, no knee). */
  stages: readonly StageWindow[] | null;
  maxInFlight: number | null;
  /** Which answers count in the stages' goodput; those that passed when absent. */
  goodAnswer?: GoodAnswer;
}

export const MAX_LOAD_POINTS = 600;

export function createLoadAnalysis(options: LoadAnalysisOptions) {
  const stages = options.stages ? createLoadStages(options.stages, options.goodAnswer) : null;
  const harness = createHarnessSaturation({ maxInFlight: options.maxInFlight });
  let series: LoadPoint[] = [];
  let lines = 0;
  let rebuilt = false;
  return {
    /** A result of the run (stages put it where it started). */
    addSample(sample: Sample): void {
      stages?.addSample(sample);
    },
    add(line: TimelineLine): void {
      lines += 1;
      if (line.rebuilt) rebuilt = true;
      stages?.add(line);
      harness.add(line);
      series.push(pointOf(line));
      if (series.length > MAX_LOAD_POINTS) series = halve(series);
    },
    finish(): LoadAnalysis | null {
      if (lines === 0) return null;
      const staged = stages?.finish() ?? { stages: null, knee: null };
      return { ...staged, harness: harness.finish(), series, rebuilt };
    },
  };
}

function pointOf(l: TimelineLine): LoadPoint {
  return {
    t_s: l.offset_ms / 1000, seconds: 1, target_rate: l.target_rate, achieved_rate: l.starts, completed_rate: l.completed,
    in_flight: l.in_flight, errors: { ...l.errors },
    latency_p50_ms: l.latency_ms?.p50 ?? null, latency_p95_ms: l.latency_ms?.p95 ?? null, latency_p99_ms: l.latency_ms?.p99 ?? null,
    corrected_p50_ms: l.corrected_latency_ms?.p50 ?? null, corrected_p95_ms: l.corrected_latency_ms?.p95 ?? null,
    corrected_p99_ms: l.corrected_latency_ms?.p99 ?? null,
    ttfc_p50_ms: l.ttfc_ms?.p50 ?? null, ttfc_p95_ms: l.ttfc_ms?.p95 ?? null,
    itl_p50_ms: l.inter_chunk_ms?.p50 ?? null, itl_p95_ms: l.inter_chunk_ms?.p95 ?? null,
    in_flight_oldest_ms: l.in_flight_oldest_ms ?? null,
    good_rate: l.good ?? null,
  };
}

/** Merges neighbours: rates averaged over the span, in-flight and percentiles their larger value. */
function halve(points: LoadPoint[]): LoadPoint[] {
  const out: LoadPoint[] = [];
  for (let i = 0; i < points.length; i += 2) {
    const a = points[i]!;
    const b = points[i + 1];
    if (!b) {
      out.push(a);
      continue;
    }
    const s = a.seconds + b.seconds;
    const avg = (x: number, y: number): number => (x * a.seconds + y * b.seconds) / s;
    const max = (x: number | null, y: number | null): number | null => (x === null ? y : y === null ? x : Math.max(x, y));
    const errors: Record<string, number> = { ...a.errors };
    for (const [k, n] of Object.entries(b.errors)) errors[k] = (errors[k] ?? 0) + n;
    out.push({
      t_s: a.t_s, seconds: s,
      target_rate: a.target_rate === null || b.target_rate === null ? max(a.target_rate, b.target_rate) : avg(a.target_rate, b.target_rate),
      achieved_rate: avg(a.achieved_rate, b.achieved_rate), completed_rate: avg(a.completed_rate, b.completed_rate),
      in_flight: Math.max(a.in_flight, b.in_flight), errors,
      latency_p50_ms: max(a.latency_p50_ms, b.latency_p50_ms), latency_p95_ms: max(a.latency_p95_ms, b.latency_p95_ms),
      latency_p99_ms: max(a.latency_p99_ms, b.latency_p99_ms), corrected_p50_ms: max(a.corrected_p50_ms, b.corrected_p50_ms),
      corrected_p95_ms: max(a.corrected_p95_ms, b.corrected_p95_ms), corrected_p99_ms: max(a.corrected_p99_ms, b.corrected_p99_ms),
      ttfc_p50_ms: max(a.ttfc_p50_ms, b.ttfc_p50_ms), ttfc_p95_ms: max(a.ttfc_p95_ms, b.ttfc_p95_ms),
      itl_p50_ms: max(a.itl_p50_ms, b.itl_p50_ms), itl_p95_ms: max(a.itl_p95_ms, b.itl_p95_ms),
      in_flight_oldest_ms: max(a.in_flight_oldest_ms, b.in_flight_oldest_ms),
      good_rate: a.good_rate === null || b.good_rate === null ? null : avg(a.good_rate, b.good_rate),
    });
  }
  return out;
}
