// An open loop's stages (as the arrivals module describes them: plain data here), and summary.json's load figures: per stage of an open loop, the knee, and whether the harness itself was the limit.

export interface StagePercentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface StageSummary {
  index: number;
  /** Target starts per second at the stage's start and end (a ramp goes linearly between); workers when `target_unit` says so. */
  from_rate: number;
  to_rate: number;
  /** `workers`: the targets are workers (`--concurrency-stages`), not starts per second; absent for a rate. */
  target_unit?: 'workers';
  start_ms: number;
  end_ms: number;
  starts: number;
  dropped: number;
  /** Requests that finished within the stage's seconds. */
  requests: number;
  errors: number;
  errors_by_kind: Record<string, number>;
  /** Starts per second over the part of the stage the run covered. */
  achieved_rate: number | null;
  error_rate: number | null;
  pass_rate: number | null;
  ttfc_ms: StagePercentiles | null;
  latency_ms: StagePercentiles | null;
  corrected_latency_ms: StagePercentiles | null;
  /** Inter-chunk latency (each streamed answer's mean gap between chunks, GuideLLM's ITL) by stage; absent in older summaries. */
  inter_chunk_ms?: StagePercentiles | null;
  /**
   * Output throughput (GuideLLM's output tokens/s, in characters): the answer characters of the
   * requests that started in the stage, per second of the stage the run covered; null without
   * result lines or covered seconds; absent in older summaries.
   */
  output_chars_per_s?: number | null;
  /** Answers (outcome ok) of the requests that started in the stage, per covered second; absent in older summaries. */
  throughput?: number | null;
  /**
   * Goodput: of those, the answers within the run's SLOs that passed their checks (metrics/goodput.ts),
   * per covered second; null when the timeline predates goodput; absent in older summaries.
   */
  goodput?: number | null;
  credits_used: number;
  credits_per_min: number | null;
}

export type KneeReason = 'latency' | 'errors' | 'pass_rate';

/** The lowest achieved rate (5-second windows of the rising part) at which the service turned. */
export interface KneeSummary {
  rate_per_s: number;
  /** Which turned first in the order latency, errors, pass rate; `reasons` lists every one that did. */
  by: KneeReason;
  reasons: KneeReason[];
  /** The window's start (ms since the run's start) and length. */
  at_ms: number;
  window_ms: number;
  latency_metric: 'corrected_latency_ms' | 'latency_ms';
  baseline_p95_ms: number;
  p95_ms: number | null;
  baseline_pass_rate: number;
  pass_rate: number;
  error_rate: number;
  /** A `--concurrency-stages` run: the workers the stages asked for in the middle of the knee's window (of its part in the rise). */
  workers?: number;
}

/** A load tool must not present its own limit as the service's. */
export interface HarnessSaturation {
  saturated: boolean;
  /** In words, each a reason the figures may show the harness rather than the service. */
  reasons: string[];
  loop_delay_p99_max_ms: number | null;
  loop_delay_limit_ms: number;
  /** Seconds whose event-loop delay p99 passed the limit. */
  seconds_over_limit: number;
  /** 5-second windows that started under 90% of their target while slots were free. */
  shortfall_windows: number;
}

/** A stage of an open loop's load profile; ms since the run's start. */
export interface StageWindow {
  index: number;
  /** The target at the stage's start and end: starts per second, or workers when `target_unit` is `workers`. */
  from_rate: number;
  to_rate: number;
  /** `workers`: a `--concurrency-stages` stage, whose targets are workers (a closed loop has no target rate). */
  target_unit?: 'workers';
  /** ms since the run's start. */
  start_ms: number;
  end_ms: number;
}

/** What an open loop (or a sweep) meant to do over time, so reports rebuilt later know its stages. */
export interface RunLoad {
  stages: StageWindow[];
  /** The open loop's bound on outstanding starts; a `--concurrency-stages` run's peak workers. */
  max_in_flight: number;
  /** A sweep (`--sweep N`): its probes and rates; `stages` are its rates. */
  sweep?: SweepPlan;
}

/**
 * run.json's `load` (schema 2): the run's load spec, with its stages when it has a schedule
 * (arrivals, worker stages, a sweep once its rates are known). `hasSchedule` tells the two apart.
 */
export type RecordedLoad = { spec: LoadSpec } & Partial<RunLoad>;

export function hasSchedule(load: RecordedLoad | undefined): load is RecordedLoad & RunLoad {
  return load?.stages !== undefined && load.max_in_flight !== undefined;
}

/** A stage of a ramp: its length and the target (starts per second, or workers) it ramps to. */
export interface LoadStageSpec {
  durationMs: number;
  targetPerS: number;
}

export type ArrivalShape = 'constant' | 'poisson';
export type MixShape = 'sequential' | 'shuffle' | 'weighted';

/** An arrivals spec's rate over time: one constant rate, or stages ramping from `startRatePerS`. */
export type ArrivalRate =
  | { kind: 'constant'; ratePerS: number; durationMs: number }
  | { kind: 'stages'; startRatePerS: number; stages: LoadStageSpec[] };

/** What every kind may carry: how starts draw the plan, and the warmup left out of statistics. */
interface LoadCommon {
  mix?: MixShape;
  warmupMs?: number;
}

/** Closed loop (k6 constant-vus over the plan once): `concurrency` units in flight until the plan is done. */
export interface ClosedLoad extends LoadCommon {
  kind: 'closed';
  concurrency: number;
}

/** Closed loop, ramping (k6 ramping-vus, `--concurrency-stages`): workers follow the stages from 0, cycling the plan. */
export interface RampingWorkersLoad extends LoadCommon {
  kind: 'ramping-workers';
  stages: LoadStageSpec[];
}

/** Open loop (k6 constant- and ramping-arrival-rate): starts on a schedule, at most `maxInFlight` outstanding. */
export interface ArrivalsLoad extends LoadCommon {
  kind: 'arrivals';
  rate: ArrivalRate;
  arrival: ArrivalShape;
  maxInFlight: number;
}

/** GuideLLM's sweep: two closed-loop probes, then `rates` constant rates between them, each for `rateMs`. */
export interface SweepLoad extends LoadCommon {
  kind: 'sweep';
  rates: number;
  rateMs: number;
  probeMs: number;
  /** Workers of the saturation probe. */
  saturationWorkers: number;
  arrival: ArrivalShape;
  maxInFlight: number;
  /** `--slo` definitions (the threshold grammar), judged per rate. */
  slo: Record<string, string[]>;
}

/**
 * Every load kind's spec by its name. A kind declared in its own folder (src/load/kinds/<kind>/)
 * adds itself here by declaration merging (`declare module '…/domain/load.js' { interface
 * LoadSpecs { <kind>: <Spec> } }`), so a new kind edits no file outside its folder and the registry.
 */
export interface LoadSpecs {
  closed: ClosedLoad;
  'ramping-workers': RampingWorkersLoad;
  arrivals: ArrivalsLoad;
  sweep: SweepLoad;
}

/** The one load model of a run (src/load/ builds and validates it; its kind's module runs it; run.json records it). */
export type LoadSpec = LoadSpecs[keyof LoadSpecs];
export type LoadKindName = keyof LoadSpecs;

/** One closed-loop probe of a sweep: its workers, span (ms since the run's start) and achieved starts per second. */
export interface SweepProbe {
  concurrency: number;
  start_ms: number;
  end_ms: number;
  starts: number;
  rate_per_s: number;
}

/** run.json's `load.sweep`: what the probes found and the rates run after them (their stages are `load.stages`). */
export interface SweepPlan {
  probes: { sequential: SweepProbe; saturation: SweepProbe };
  /** When the first rate began, ms since the run's start. */
  start_ms: number;
  rate_ms: number;
  rates: number[];
  /** `--slo` definitions (the threshold grammar), judged per rate. */
  slo: Record<string, string[]>;
}
