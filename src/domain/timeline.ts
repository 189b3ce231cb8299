// timeline.ndjson: one line per wall-clock second of a run (CONTRACT.md, "timeline.ndjson").

/** The interval timings a timeline line carries, each as percentiles and an HDR interval histogram. */
export const INTERVAL_TIMINGS = ['ttfc_ms', 'latency_ms', 'corrected_latency_ms', 'inter_chunk_ms'] as const;
export type IntervalTiming = (typeof INTERVAL_TIMINGS)[number];

/** Percentiles of one timing within one interval (ms); null in the line when nothing was recorded. */
export interface IntervalPercentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface TimelineLine {
  /** The wall-clock second the line covers: [t, t + 1) in Unix seconds (shards align on it). */
  t: number;
  /** ms from the run's start to the start of this second (the first second starts before the run). */
  offset_ms: number;
  /**
   * Starts intended within this second (the target rate's integral over it: the rate itself, but a
   * share of it in the run's first and last seconds); null in a closed loop or once the run stopped.
   */
  target_rate: number | null;
  /** Units handed to the runner in this second (a thread is one start). */
  starts: number;
  /** Open-loop starts that could no longer be sent (counted in the second they were given up). */
  dropped: number;
  /**
   * The item ids of this second's dropped starts, when the load names them (a traffic replay's): a
   * `--resume` reads them so a dropped record is never sent again (absent when none, and in older files).
   */
  dropped_items?: string[];
  /** Requests that finished in this second (result lines, skipped turns excluded). */
  completed: number;
  ok: number;
  /** Units in flight at the end of the second, and the most at once during it. */
  in_flight: number;
  in_flight_max: number;
  /** Request errors finished in this second, by error code (else outcome). */
  errors: Record<string, number>;
  /** Requests whose final HTTP status was 429. */
  status_429: number;
  /** Requests that passed their checks, and those that did not (request errors included). */
  passed: number;
  failed: number;
  /**
   * Goodput: answers finished in this second that arrived within the run's SLOs and passed their
   * checks (metrics/goodput.ts); with no SLO, the answers that passed. Absent in older files.
   */
  good?: number;
  /** Credits spent by the requests finished in this second, in exact 1e-5 units, and as credits. */
  credit_units: number;
  credits_used: number;
  ttfc_ms: IntervalPercentiles | null;
  latency_ms: IntervalPercentiles | null;
  corrected_latency_ms: IntervalPercentiles | null;
  /** Mean gap between two chunks of each streamed answer. */
  inter_chunk_ms: IntervalPercentiles | null;
  /** The harness's own event-loop delay p99 in this second (null when not measured: rebuilt, merged shards give the max). */
  loop_delay_p99_ms: number | null;
  /** The interval histograms (hdr-histogram-js compressed base64, µs), so lines add exactly. */
  hdr: Partial<Record<IntervalTiming, string>>;
  /**
   * Open loop: starts the schedule itself planned in this second (sent, or dropped): a Poisson
   * schedule's own count, against which a shortfall is judged (absent in older files).
   */
  planned?: number;
  /** Starts due and held back by the in-flight cap at the end of the second (absent in older files). */
  held?: number;
  /** How long the oldest unit in flight at the end of the second had waited, from its intended start (ms). */
  in_flight_oldest_ms?: number | null;
  /** Present when the line was rebuilt from results.ndjson (no starts, in-flight or target known). */
  rebuilt?: true;
}
