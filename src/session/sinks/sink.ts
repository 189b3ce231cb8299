// The run as a fan-out of sinks (k6's output.Output: Start, AddMetricSamples, Stop): each concern of
// a run (its results file, timeline and outputs, stop conditions, setup check, end, progress)
// subscribes to the one stream of its events, and drive() only pumps them and collects outcomes.
import type { OutputReport } from '../../domain/output.js';
import type { StorageError } from '../../domain/errors.js';
import type { Sample } from '../../domain/sample.js';
import type { RunEvent, StopReason } from '../../runner/index.js';
import type { StopDecision } from '../stop-conditions.js';

/** What a sink has to say when the run ends; drive() keeps, per field, the first sink's that says it. */
export interface SinkOutcome {
  /** A write that failed (a full disk): results.ndjson's comes first, it is the source of truth. */
  failure?: StorageError;
  /** What each `--output` sent and dropped. */
  outputs?: OutputReport[];
  /** A stop condition met (the run is aborted). */
  abort?: StopDecision;
  /** How the runner said it stopped (absent: it ran to its end). */
  stop?: { reason: StopReason; detail: string };
  /** Starts the in-flight cap dropped. */
  dropped?: number;
  /** Spent by requests without a result line (replayed turns), in 1e-5 units. */
  unrecordedUnits?: number;
}

export interface RunSink {
  readonly name: string;
  /**
   * One event of the run, in order; a result's event carries it as recorded (warmup marked,
   * redacted) and reaches the results file first. Returns a promise only when the pump must wait
   * for it: a synchronous sink costs the hot path no await.
   */
  onEvent?(event: RunEvent): void | Promise<void>;
  /** A result's line is in results.ndjson: only from now on does it count (progress, credits). */
  onRecorded?(sample: Sample): void;
  /** The run ended (or failed): after every event, in the list's order. */
  close(): SinkOutcome | Promise<SinkOutcome>;
}

/** What a sink may ask of the run it watches. */
export interface RunControl {
  /** A write failed: the run is cancelled at once (its results would have nowhere to go). */
  fail(): void;
  /** A stop condition met: no new request starts; the first decision is the run's. */
  halt(decision: StopDecision): void;
}

/** The sinks' outcomes as one: each field from the first sink that gave it. */
export function mergeOutcomes(outcomes: readonly SinkOutcome[]): SinkOutcome {
  const merged: Record<string, unknown> = {};
  for (const outcome of outcomes) {
    for (const [key, value] of Object.entries(outcome)) if (merged[key] === undefined && value !== undefined) merged[key] = value;
  }
  return merged as SinkOutcome;
}

/** Closes every sink in order (a later one sees what an earlier one flushed), then merges what they said. */
export async function closeSinks(sinks: readonly RunSink[]): Promise<SinkOutcome> {
  const outcomes: SinkOutcome[] = [];
  for (const sink of sinks) outcomes.push(await sink.close());
  return mergeOutcomes(outcomes);
}
