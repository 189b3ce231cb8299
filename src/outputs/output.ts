// Live-metrics outputs (k6's output.Output): each closed second of the run goes to every output.
//
// HOW TO ADD AN OUTPUT (e.g. `otlp`):
//   1. Add its name to OUTPUT_KINDS in src/domain/output.ts (`--output NAME=URL` and the suite's
//      `load.outputs` accept it from then on; the parsers read that list).
//   2. Write src/outputs/<name>/output.ts exporting a factory `(url: URL, ctx: OutputContext) => Output`
//      and add it to OUTPUTS in src/outputs/registry.ts (a Record<OutputKind, …>: tsc says if one is missing).
//   3. Its second() only enqueues (never throws, never awaits, never does I/O inline): use
//      BatchQueue (src/outputs/batch-queue.ts), which bounds the queue, sends one batch at a time,
//      counts dropped batches and errors, and gives stop() its deadline and its OutputReport.
//   4. A test under test/ against a real receiver on 127.0.0.1, and a section in docs/live-metrics.md.
// The run never waits on an output except in stop(), bounded by its deadline; a dead endpoint
// costs the run nothing but dropped batches, which the run reports (run.json, summary.json, console).
import type { OutputKind, OutputReport } from '../domain/output.js';
import type { TimelineLine } from '../domain/timeline.js';

export type { OutputKind, OutputReport, OutputSpec } from '../domain/output.js';

/** Who the run is: the labels every output puts on its series (a distributed run is one picture by them). */
export interface OutputContext {
  runId: string;
  suite: string;
  /** `i/N` for `--shard i/N`, `1/1` for a run of one process. */
  shard: string;
  /** Models of the plan, in report order (series exist for each from the first second). */
  models: readonly string[];
}

/** What one model's results finished in a second: result lines by outcome, and their credits. */
export interface ModelSecond {
  /** sample.outcome → results (ok, http_error, timeout, …; skipped turns included). */
  outcomes: Record<string, number>;
  /** Credits of those results (answers and their checks), exact 1e-5 units. */
  credit_units: number;
}

/** One closed second: timeline.ndjson's line, and the per-model tallies the line does not carry. */
export interface ClosedSecond {
  line: TimelineLine;
  /** Results finished in this second, by model (models with none are absent). */
  models: Record<string, ModelSecond>;
}

export interface Output {
  readonly kind: OutputKind | 'timeline' | 'live';
  /** Before the first second (no sending yet: an endpoint down at start costs nothing either). */
  start(): void;
  /** A closed second, in order. Only enqueues: never throws into, nor slows, the run. */
  second(second: ClosedSecond): void;
  /** The run ended: flush what is queued within `deadlineMs`, then say what was sent and dropped. */
  stop(deadlineMs: number): Promise<OutputReport | null>;
}

/** A factory of the registry: the URL parsed and checked, the run's labels. */
export type OutputFactory = (url: URL, ctx: OutputContext) => Output;
