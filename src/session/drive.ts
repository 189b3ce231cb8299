// Drives the runner: every result appended to results.ndjson (and counted only once it is there),
// progress reported, and how the run ended.
import { answerBoundsOf, goodAnswerOf, sloOfLoad } from '../metrics/goodput.js';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { KbClient } from '../client/index.js';
import { createRedactor } from '../client/redact.js';
import { fromUnits, sampleCreditUnits, toUnits } from '../credits/units.js';
import type { LoadSpec } from '../domain/load.js';
import type { RunStatus } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { IntervalRecorder, type LiveInterval } from '../metrics/interval-recorder.js';
import type { OutputReport } from '../domain/output.js';
import { createOutputs, loadOutputs, ModelTally, OutputStream, type ClosedSecond, type Output, type OutputContext } from '../outputs/index.js';
import { monotonicMs, startRun, type LoopSpec, type RunnerOptions, type RunEvent, type StopReason, type UnitSource } from '../runner/index.js';
import { ResultsFile } from '../store/results-file.js';
import { RUN_FILES } from '../store/run-dir.js';
import { arrivalSchedule, profileDurationMs, targetRateAt, type LoadProfile } from '../runner/arrivals.js';
import { TimelineFile, timelinePath } from '../store/timeline-file.js';
import { loadShapeOf, sweepRunProfile } from './load-shape.js';
import { startLoopDelayProbe } from './loop-delay.js';
import { judgePort, type GradingDeps } from './judge-port.js';
import { createSetupCheck } from './setup-check.js';
import { createStopConditions, type StopDecision } from './stop-conditions.js';
import type { ThresholdAbort } from '../domain/suite.js';
import { arrivalProfileOf, workersProfileOf } from '../load/index.js';
import { askedConcurrency, specOf } from '../config/load-section.js';
import { redactSample, runCredentials } from './redact-sample.js';
import type { RunConfig } from '../config/run-config.js';
import type { ResolvedTarget } from './target.js';
import type { WorkerPool } from './workers/pool.js';

export interface ProgressInfo {
  done: number;
  total: number;
  errors: number;
  creditsUsed: number;
}

export interface DriveHooks {
  stop: AbortSignal;
  abort: AbortSignal;
  onProgress?(progress: ProgressInfo, sample: Sample): void;
  onStopping?(reason: StopReason, detail: string): void;
  /** Once per closed second of a time-bound loop: the run's last seconds, for a live line (only cli/ prints it). */
  onInterval?(live: LiveInterval): void;
  /** A sweep's probes are done: its rates begin (run.json records them). */
  onSweep?(sweep: SweepEvent): void;
  /** Every credential the run knows (runCredentials, with the environment's): redacted from what came from outside. */
  credentials?: readonly string[];
}

export type SweepEvent = Extract<RunEvent, { type: 'sweep' }>;

/** How often closed seconds are looked for: a line reaches the file within this of its second's end. */
const TIMELINE_TICK_MS = 250;

export interface DriveOutcome {
  status: RunStatus;
  /** Spent by requests without a result line (replayed turns), in 1e-5 units. */
  unrecordedUnits: number;
  stopReason?: string;
  dropped: number;
  failure?: unknown;
  /** A stop condition met (status aborted). */
  abort?: StopDecision;
  /** What each `--output` sent and dropped (empty without outputs). */
  outputs: OutputReport[];
}

export interface DriveCounts {
  total: number;
  /** Results already in the file (a resume). */
  done: number;
  /** What those results spent, in 1e-5 units. */
  previousUnits: number;
  thresholdAborts: readonly ThresholdAbort[];
  /** The suite's largest case or thread weight (a weighted mix draws against it). */
  maxWeight: number;
  /** Who the run is, for the live-metrics outputs' labels (absent: no `--output` is started). */
  outputContext?: OutputContext;
  /** --workers N (N > 1): the worker threads spawned on the run (absent: this thread's loop). */
  workers?: WorkerPool;
}

function redactReports(reports: OutputReport[], redact: (text: string) => string): OutputReport[] {
  return reports.map((r) => (r.first_error === null ? r : { ...r, first_error: redact(r.first_error) }));
}

/** A request started within --warmup is marked so statistics and thresholds leave it out. */
function markWarmup(sample: Sample, warmupMs: number | undefined): Sample {
  return warmupMs !== undefined && sample.offset_ms < warmupMs ? { ...sample, warmup: true } : sample;
}

function stopOptionsOf(options: RunConfig) {
  return {
    ...(options.maxErrors !== undefined ? { maxErrors: options.maxErrors } : {}),
    ...(options.maxErrorRate !== undefined ? { maxErrorRate: options.maxErrorRate } : {}),
    ...(options.errorWindowMs !== undefined ? { errorWindowMs: options.errorWindowMs } : {}),
  };
}

function mixOf(spec: LoadSpec, seed: number | undefined, maxWeight: number) {
  return spec.mix === undefined || spec.mix === 'sequential' ? {} : { mix: { kind: spec.mix, seed: seed ?? 1, maxWeight } };
}

/**
 * The runner's loop for the run's LoadSpec (src/load/), kind by kind: the spec's kinds are the
 * runner's executor kinds (runner/loop/executors.ts); this adds what only a run has (the schedule
 * drawn with its seed, the shard's segment).
 */
function loopOf(spec: LoadSpec, options: RunConfig): { load: LoopSpec } {
  const seed = options.seed !== undefined ? { seed: options.seed } : {};
  switch (spec.kind) {
    case 'closed':
      return { load: { kind: 'closed', concurrency: spec.concurrency } };
    case 'ramping-workers':
      return { load: { kind: 'ramping-workers', profile: workersProfileOf(spec)! } };
    case 'sweep':
      return { load: { kind: 'sweep', rates: spec.rates, rateMs: spec.rateMs, probeMs: spec.probeMs, saturationConcurrency: spec.saturationWorkers, maxInFlight: spec.maxInFlight, arrival: spec.arrival, ...seed } };
    case 'arrivals': {
      const profile = arrivalProfileOf(spec)!;
      const schedule = arrivalSchedule(profile, { arrival: spec.arrival, ...seed });
      return { load: { kind: 'arrivals', schedule, durationMs: profileDurationMs(profile), maxInFlight: spec.maxInFlight, segment: options.shard ?? null } };
    }
  }
}

/** The runner's options of a run: the one loop's, or each worker thread's (session/workers/). */
export function runnerOptionsOf(
  options: RunConfig, client: KbClient, target: ResolvedTarget, counts: Pick<DriveCounts, 'previousUnits' | 'maxWeight'>, grading: GradingDeps,
  signals: { stop: AbortSignal; abort: AbortSignal },
): RunnerOptions {
  const spec = specOf(options);
  return {
    client, target: { boardId: target.boardId, chatId: target.chatId }, concurrency: askedConcurrency(options.load), ...loopOf(spec, options), ...mixOf(spec, options.seed, counts.maxWeight),
    timeoutMs: options.timeoutMs, retries: options.retries,
    ...(options.gracefulStopMs !== undefined ? { gracefulStopMs: options.gracefulStopMs } : {}),
    ...(options.maxRetryWaitMs !== undefined ? { backoff: { maxWaitMs: options.maxRetryWaitMs } } : {}),
    budget: {
      ...(options.maxCredits !== undefined ? { maxCredits: Math.max(0, options.maxCredits - fromUnits(counts.previousUnits)) } : {}),
      ...(options.minRemaining !== undefined ? { minRemaining: options.minRemaining } : {}),
    },
    check: judgePort(client, target, options, grading), stop: signals.stop, abort: signals.abort,
  };
}

export async function drive(
  source: UnitSource, options: RunConfig, hooks: DriveHooks, client: KbClient, target: ResolvedTarget, runDir: string, counts: DriveCounts,
  grading: GradingDeps = {},
): Promise<DriveOutcome> {
  const spec = specOf(options);
  const results = new ResultsFile(join(runDir, RUN_FILES.results));
  // Both keys: the one sent (the embedded service's, in embedded mode) and the user's own.
  const redact = createRedactor([target.apiKey, ...(hooks.credentials ?? runCredentials(options, {}))]);
  // A result that cannot be written (a full disk) stops the run at once: the requests in flight are
  // cancelled, for their results would have nowhere to go.
  let cancelRun = (): void => undefined;
  results.onFailure = () => cancelRun();
  // The live-metrics outputs' modules are imported on demand (src/outputs/registry.ts): before the clock starts.
  if (counts.outputContext && options.outputs?.length) await loadOutputs(options.outputs);
  // --workers N: N loops in worker threads, their events joined here (session/workers/).
  if (counts.workers) await counts.workers.ready;
  const handle = counts.workers ? counts.workers.start(hooks) : startRun(source, runnerOptionsOf(options, client, target, counts, grading, hooks));
  const timeline = startTimeline(runDir, handle.runStartMs, options, spec, hooks, counts.outputContext);
  cancelRun = () => handle.cancel();
  timeline.onFailure(() => cancelRun());
  const progress: ProgressInfo = { done: counts.done, total: counts.total, errors: 0, creditsUsed: fromUnits(counts.previousUnits) };
  let stop: StopReason | null = null;
  let stopDetail = '';
  let recordedUnits = 0;
  const unrecordedUnits = (): number => Math.max(0, toUnits(handle.ledger.spent) - recordedUnits);
  let dropped = 0;
  // A result counts (progress, credits recorded) only once its line is in the file.
  const counted = (sample: Sample) => (): void => {
    recordedUnits += sampleCreditUnits(sample);
    progress.done += 1;
    if (sample.outcome !== 'ok' && sample.outcome !== 'skipped') progress.errors += 1;
    progress.creditsUsed = fromUnits(counts.previousUnits + toUnits(handle.ledger.spent));
    hooks.onProgress?.(progress, sample);
  };
  const conditions = createStopConditions({ ...stopOptionsOf(options), thresholdAborts: counts.thresholdAborts }, handle.runStartMs);
  let abort: StopDecision | null = null;
  const setup = createSetupCheck({ boardId: target.boardId, chatId: target.chatId });
  const judge = (sample: Sample): void => {
    const decision = conditions?.observe(sample, monotonicMs()) ?? setup.observe(sample);
    if (decision === null || stop !== null) return;
    abort = decision;
    handle.halt(decision.by, decision.detail);
  };
  // A sweep's probe results come before its 'sweep' event: recorded as warmup, out of its figures.
  let probing = spec.kind === 'sweep';
  try {
    // A turn's events at once: the results that arrived in it are booked together, after it.
    batches: for await (const batch of handle.events.batches()) {
      for (const event of batch) {
        if (results.failure ?? timeline.failure()) break batches;
        if (event.type === 'sample') {
          const marked = probing ? { ...event.sample, warmup: true as const } : markWarmup(event.sample, spec.warmupMs);
          const sample = redactSample(marked, redact);
          timeline.sample(sample);
          results.append(sample, counted(sample));
          if (sample.warmup !== true) judge(sample);
          continue;
        }
        if (event.type === 'sweep') {
          probing = false;
          timeline.sweep(event);
          hooks.onSweep?.(event);
          continue;
        }
        timeline.record(event);
        if (event.type === 'stopped') {
          stop = event.reason;
          stopDetail = event.detail;
          hooks.onStopping?.(event.reason, event.detail);
        } else if (event.type === 'dropped') dropped += event.count;
      }
    }
  } catch (failure) {
    const outputs = redactReports(await timeline.close(), redact);
    results.close();
    return { status: 'failed', stopReason: String(failure), dropped, failure, unrecordedUnits: unrecordedUnits(), outputs };
  }
  // A receiver's error words (a body, a reason phrase) came from outside: they may echo a credential.
  const outputs = redactReports(await timeline.close(), redact);
  results.close();
  // A full disk: results.ndjson's failure first (the source of truth), else timeline.ndjson's.
  const storage = results.failure ?? timeline.failure();
  if (storage) return { status: 'failed', stopReason: storage.message, dropped, failure: storage, unrecordedUnits: unrecordedUnits(), outputs };
  // Requests cancelled by a hard stop were not recorded: the run is not complete, whatever else finished.
  if (stop === null && hooks.abort.aborted) stop = 'interrupted';
  const aborted = abort as StopDecision | null;
  if (aborted !== null) return { status: 'aborted', stopReason: aborted.detail, abort: aborted, dropped, unrecordedUnits: unrecordedUnits(), outputs };
  if (stop === 'budget-exhausted') return { status: 'budget-exhausted', stopReason: stopDetail, dropped, unrecordedUnits: unrecordedUnits(), outputs };
  if (stop === 'interrupted') return { status: 'interrupted', stopReason: 'interrupted by a signal', dropped, unrecordedUnits: unrecordedUnits(), outputs };
  return { status: 'completed', dropped, unrecordedUnits: unrecordedUnits(), outputs };
}

/** Where a sweep is at `tMs`: probing, or its k-th rate of N (its stages follow a first one of target 0). */
function sweepPhase(profile: LoadProfile | null, tMs: number): string {
  if (profile === null || profile.kind !== 'stages') return 'probing (closed loops: one at a time, then at saturation)';
  const rates = profile.stages.slice(1);
  let endMs = profile.stages[0]!.durationMs;
  for (const [i, stage] of rates.entries()) {
    endMs += stage.durationMs;
    if (tMs < endMs) return `rate ${i + 1}/${rates.length}`;
  }
  return 'rates done';
}

/**
 * The per-second recorder fed from this loop, each closed second one stream (src/outputs/) read by
 * timeline.ndjson, the console's live line and every `--output` (a timer looks for closed seconds,
 * so quiet seconds get their line too).
 */
function startTimeline(runDir: string, runStartMs: number, options: RunConfig, spec: LoadSpec, hooks: DriveHooks, outputContext: OutputContext | undefined) {
  const shape = loadShapeOf(options);
  const workers = workersProfileOf(spec);
  const sweep = spec.kind === 'sweep';
  const context = (tMs: number): Pick<LiveInterval, 'time_bound' | 'max_in_flight' | 'workers_target' | 'phase'> => ({
    time_bound: spec.kind !== 'closed',
    max_in_flight: spec.kind === 'arrivals' || (spec.kind === 'sweep' && sweepShape !== null) ? spec.maxInFlight : null,
    workers_target: workers !== null ? Math.round(targetRateAt(workers, tMs)) : null,
    phase: sweep ? sweepPhase(sweepShape, tMs) : null,
  });
  // A sweep's target is 0 during its probes (closed loops), then its rates' stages.
  let sweepShape: LoadProfile | null = null;
  const sweepTarget = (tMs: number): number => (sweepShape ? targetRateAt(sweepShape, tMs) : 0);
  const target = shape ? shape.targetRateAt : sweep ? sweepTarget : null;
  const recorder = new IntervalRecorder({
    runStartMs, wallOriginMs: performance.timeOrigin, ...(target ? { targetRateAt: target } : {}),
    goodAnswer: goodAnswerOf(answerBoundsOf(sloOfLoad(spec))),
  });
  const file = new TimelineFile(timelinePath(runDir));
  const probe = startLoopDelayProbe();
  const loopDelay = (): number | null => probe.takeP99Ms();
  const tally = new ModelTally(performance.timeOrigin);
  // The live line reads the recorder's last seconds: once per flush, at its latest line. Only when
  // someone shows it, and only for a time-bound loop (a closed loop's progress is its count): its
  // p95s add ten seconds' histograms, milliseconds on the loop that reads the answers, each second.
  const showLive = hooks.onInterval !== undefined && spec.kind !== 'closed';
  const liveLine: Output = {
    kind: 'live', start: () => undefined, stop: () => Promise.resolve(null),
    second({ line }: ClosedSecond): void {
      if (!showLive) return;
      const live = recorder.live();
      if (live && live.line === line) hooks.onInterval?.({ ...live, ...context(live.line.offset_ms + 1000) });
    },
  };
  const timelineFile: Output = { kind: 'timeline', start: () => undefined, stop: () => Promise.resolve(null), second: ({ line }) => file.append([line]) };
  const stream = new OutputStream([timelineFile, liveLine, ...(outputContext ? createOutputs(options.outputs ?? [], outputContext) : [])]);
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
    sweep(event: SweepEvent): void {
      sweepShape = sweepRunProfile(event);
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
      else if (event.type === 'dropped') recorder.dropped(event.count, now);
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
