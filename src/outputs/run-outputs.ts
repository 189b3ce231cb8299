// The run's per-second fan-out (k6's output/): one recorder of closed seconds, and one stream of
// them read by timeline.ndjson, the console's live line and every `--output`. session/drive.ts feeds
// it the run's events; it owns every sink of a second, so drive wires none by hand.
import { performance } from 'node:perf_hooks';
import type { LoadSpec } from '../domain/load.js';
import type { OutputReport, OutputSpec } from '../domain/output.js';
import type { Sample } from '../domain/sample.js';
import { isTimeBound, probedOf, specMaxInFlight, workersProfileOf, type RatesFound } from '../load/index.js';
import { answerBoundsOf, goodAnswerOf, sloOfLoad } from '../metrics/goodput.js';
import { IntervalRecorder, type LiveInterval } from '../metrics/interval-recorder.js';
import { targetRateAt, type LoadProfile } from '../runner/arrivals.js';
import { monotonicMs } from '../runner/clock.js';
import type { RunEvent } from '../runner/unit.js';
import { TimelineFile, timelinePath } from '../store/timeline-file.js';
import { ModelTally } from './model-tally.js';
import type { ClosedSecond, Output, OutputContext } from './output.js';
import { createOutputs } from './registry.js';
import { OutputStream } from './stream.js';

/** How often closed seconds are looked for: a line reaches the file within this of its second's end. */
const TIMELINE_TICK_MS = 250;

export interface RunOutputsInput {
  runDir: string;
  runStartMs: number;
  /** When the run began (monotonic ms), when its clock goes on from an earlier t0 (a resumed replay's); default runStartMs. */
  openedAtMs?: number;
  spec: LoadSpec;
  /** The open loop's intended starts per second over the run (a shard's share); null: none known before the run. */
  shape: { targetRateAt(tMs: number): number } | null;
  /** `--output` and the suite's `load.outputs`; started only with an `outputContext`. */
  outputs?: readonly OutputSpec[];
  outputContext?: OutputContext;
  /** Once per closed second of a time-bound loop: the live line (only cli/ prints it). */
  onInterval?(live: LiveInterval): void;
  /** The event loop's delay, each second's p99 (session/loop-delay.ts); stopped at close. */
  loopDelay: { takeP99Ms(): number | null; stop(): void };
}

/**
 * The per-second recorder fed from this loop, each closed second one stream (src/outputs/) read by
 * timeline.ndjson, the console's live line and every `--output` (a timer looks for closed seconds,
 * so quiet seconds get their line too).
 */
export function startRunOutputs(run: RunOutputsInput) {
  const { runDir, runStartMs, spec, shape, outputContext, onInterval } = run;
  const workers = workersProfileOf(spec);
  // A kind with probes (a sweep): its target is 0 during them (closed loops), then its rates'.
  const probed = probedOf(spec);
  const timeBound = isTimeBound(spec);
  const maxInFlight = specMaxInFlight(spec);
  const context = (tMs: number): Pick<LiveInterval, 'time_bound' | 'max_in_flight' | 'workers_target' | 'phase'> => ({
    time_bound: timeBound,
    // A sweep's probes are closed loops: its cap holds only once its rates begin.
    max_in_flight: probed !== null && ratesShape === null ? null : maxInFlight,
    workers_target: workers !== null ? Math.round(targetRateAt(workers, tMs)) : null,
    phase: probed ? probed.phase(ratesShape, tMs) : null,
  });
  let ratesShape: LoadProfile | null = null;
  const probedTarget = (tMs: number): number => (ratesShape ? targetRateAt(ratesShape, tMs) : 0);
  const target = shape ? shape.targetRateAt : probed ? probedTarget : null;
  const recorder = new IntervalRecorder({
    runStartMs, ...(run.openedAtMs !== undefined ? { openedAtMs: run.openedAtMs } : {}), wallOriginMs: performance.timeOrigin, ...(target ? { targetRateAt: target } : {}),
    goodAnswer: goodAnswerOf(answerBoundsOf(sloOfLoad(spec))),
  });
  const file = new TimelineFile(timelinePath(runDir));
  const probe = run.loopDelay;
  const loopDelay = (): number | null => probe.takeP99Ms();
  const tally = new ModelTally(performance.timeOrigin);
  // The live line reads the recorder's last seconds: once per flush, at its latest line. Only when
  // someone shows it, and only for a time-bound loop (a closed loop's progress is its count): its
  // p95s add ten seconds' histograms, milliseconds on the loop that reads the answers, each second.
  const showLive = onInterval !== undefined && timeBound;
  const liveLine: Output = {
    kind: 'live', start: () => undefined, stop: () => Promise.resolve(null),
    second({ line }: ClosedSecond): void {
      if (!showLive) return;
      const live = recorder.live();
      if (live && live.line === line) onInterval?.({ ...live, ...context(live.line.offset_ms + 1000) });
    },
  };
  const timelineFile: Output = { kind: 'timeline', start: () => undefined, stop: () => Promise.resolve(null), second: ({ line }) => file.append([line]) };
  const stream = new OutputStream([timelineFile, liveLine, ...(outputContext ? createOutputs(run.outputs ?? [], outputContext) : [])]);
  stream.start();
  const write = (lines: ReturnType<IntervalRecorder['flush']>, final = false): void => {
    for (const [i, line] of lines.entries()) stream.second({ line, models: tally.take(final && i === lines.length - 1 ? Infinity : line.t) });
  };
  const timer = setInterval(() => write(recorder.flush(monotonicMs(), loopDelay)), TIMELINE_TICK_MS);
  timer.unref();
  let closed = false;
  return {
    failure: () => file.failure,
    onFailure(listener: () => void): void {
      file.onFailure = listener;
    },
    sweep(event: RatesFound): void {
      ratesShape = probed?.profile(event) ?? null;
    },
    sample(sample: Sample): void {
      const now = monotonicMs();
      recorder.sample(sample, now);
      tally.add(sample, now);
    },
    record(event: Exclude<RunEvent, { type: 'sample' | 'sweep' }>): void {
      const now = monotonicMs();
      if (event.type === 'start') recorder.start(event.at_ms, event.id, event.intended_at_ms);
      else if (event.type === 'settled') recorder.settled(now, event.id);
      else if (event.type === 'held') recorder.held(event.count, now);
      else if (event.type === 'dropped') recorder.dropped(event.count, now, event.items);
      else recorder.endSchedule();
    },
    /** The last seconds written, then the outputs flushed within their deadline: their reports. */
    async close(): Promise<OutputReport[]> {
      if (closed) return [];
      closed = true;
      clearInterval(timer);
      write(recorder.finish(monotonicMs(), loopDelay), true);
      probe.stop();
      return stream.stop();
    },
  };
}
