// Drives the runner: the run's events pumped to its sinks (session/sinks/: results.ndjson first,
// then timeline and outputs, stop conditions, setup check, the run's end, progress), and how it ended.
import { resolve } from 'node:path';
import type { KbClient } from '../client/index.js';
import type { Redactor } from '../client/redact.js';
import { fromUnits } from '../credits/units.js';
import type { LoadSpec } from '../domain/load.js';
import type { RunStatus } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { AnswerReuse } from '../domain/answer-reuse.js';
import { readResults } from '../store/results-reader.js';
import { droppedItemsOf } from '../store/timeline-file.js';
import type { LiveInterval } from '../metrics/interval-recorder.js';
import type { OutputReport } from '../domain/output.js';
import type { OutputContext } from '../outputs/index.js';
import { startRun, type RunHandle, type RunnerOptions, type UnitSource } from '../runner/index.js';
import { judgePort, type GradingDeps } from './judge-port.js';
import type { StopDecision } from './stop-conditions.js';
import type { RequestOptions, ThresholdAbort } from '../domain/suite.js';
import { loopOf, resumeClockOf, type LoopContext } from '../load/index.js';
import { askedConcurrency, specOf } from '../config/load-section.js';
import type { RunConfig } from '../config/run-config.js';
import type { ResolvedTarget } from './target.js';
import type { WorkerPool } from './workers/pool.js';
import { outputsConfigOf, outputsSink, prepareOutputs, type OutputsConfig } from './sinks/outputs-sink.js';
import { progressSink, type ProgressHooks } from './sinks/progress-sink.js';
import { recordableEvents, recordingConfigOf, runRedactor } from './sinks/recordable.js';
import { resultsSink } from './sinks/results-sink.js';
import { runEndSink } from './sinks/run-end-sink.js';
import { setupCheckSink } from './sinks/setup-check-sink.js';
import { pumpEvents } from './sinks/pump.js';
import { closeSinks, type RunSink, type SinkOutcome } from './sinks/sink.js';
import { stopConditionsSink, stopOptionsOf } from './sinks/stop-conditions-sink.js';

export type { ProgressInfo, SweepEvent } from './sinks/progress-sink.js';

export interface DriveHooks extends ProgressHooks {
  stop: AbortSignal;
  abort: AbortSignal;
  /** Once per closed second of a time-bound loop: the run's last seconds, for a live line (only cli/ prints it). */
  onInterval?(live: LiveInterval): void;
  /** Every credential the run knows (runCredentials, with the environment's): redacted from what came from outside. */
  credentials?: readonly string[];
}

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
  /** --reuse-answers: earlier runs' answers, taken instead of sending. */
  reuse?: AnswerReuse;
  /** The suite's `defaults`: a request a load kind makes itself (a replayed record) takes them, as a case does. */
  suiteDefaults?: RequestOptions;
}

function mixOf(spec: LoadSpec, seed: number | undefined, maxWeight: number) {
  return spec.mix === undefined || spec.mix === 'sequential' ? {} : { mix: { kind: spec.mix, seed: seed ?? 1, maxWeight } };
}

/** The runner's options of a run: the one loop's, or each worker thread's (session/workers/). */
/** A resumed run's recorded results, read when its loop starts (a replay skips what has a line: load/kinds/traffic/resume.ts). */
const recordedOf = (runDir: string) => () => readResults(runDir);

/** What the run adds to its load spec when its loop starts (load/kind.ts LoopContext): a resume's records done among them. */
function loopContextOf(options: RunConfig, target: Pick<ResolvedTarget, 'embedded'>, counts: Pick<DriveCounts, 'suiteDefaults'>): LoopContext {
  const resumeDir = options.placement.resumeDir === undefined ? null : resolve(options.placement.resumeDir);
  return {
    shard: options.placement.shard ?? null, ...(options.plan.seed !== undefined ? { seed: options.plan.seed } : {}), ...(options.plan.models?.length === 1 ? { model: options.plan.models[0]! } : {}),
    requestLayers: { ...(counts.suiteDefaults ? { suite: counts.suiteDefaults } : {}), flags: options.request.requestDefaults },
    ...(resumeDir !== null ? { recorded: recordedOf(resumeDir), droppedBefore: () => droppedItemsOf(resumeDir), conversationsGone: target.embedded } : {}),
  };
}

/** A resumed run's clock at its start, on its schedule's: where its load kind goes on (0 for a run that is not a resume). */
export function resumeClockOfRun(options: RunConfig, target: Pick<ResolvedTarget, 'embedded'>, counts: Pick<DriveCounts, 'suiteDefaults'>): Promise<number> {
  return options.placement.resumeDir === undefined ? Promise.resolve(0) : resumeClockOf(specOf(options), loopContextOf(options, target, counts));
}

export function runnerOptionsOf(
  options: RunConfig, client: KbClient, target: ResolvedTarget, counts: Pick<DriveCounts, 'previousUnits' | 'maxWeight' | 'reuse' | 'suiteDefaults'>, grading: GradingDeps,
  signals: { stop: AbortSignal; abort: AbortSignal },
): RunnerOptions {
  const spec = specOf(options);
  return {
    client, target: { boardId: target.boardId, chatId: target.chatId }, concurrency: askedConcurrency(options.load),
    load: loopOf(spec, loopContextOf(options, target, counts)), ...mixOf(spec, options.plan.seed, counts.maxWeight),
    timeoutMs: options.request.timeoutMs, retries: options.request.retries,
    ...(options.request.gracefulStopMs !== undefined ? { gracefulStopMs: options.request.gracefulStopMs } : {}),
    ...(options.request.maxRetryWaitMs !== undefined ? { backoff: { maxWaitMs: options.request.maxRetryWaitMs } } : {}),
    budget: {
      ...(options.budget.maxCredits !== undefined ? { maxCredits: Math.max(0, options.budget.maxCredits - fromUnits(counts.previousUnits)) } : {}),
      ...(options.budget.minRemaining !== undefined ? { minRemaining: options.budget.minRemaining } : {}),
    },
    check: judgePort(client, target, options, grading), stop: signals.stop, abort: signals.abort,
    ...(counts.reuse ? { reuse: counts.reuse } : {}),
  };
}

/** Everything a run's drive needs: one value, so a new need is one field, never a ninth parameter. */
export interface DriveInput {
  source: UnitSource;
  config: RunConfig;
  hooks: DriveHooks;
  client: KbClient;
  target: ResolvedTarget;
  runDir: string;
  counts: DriveCounts;
  grading?: GradingDeps;
  /** A resumed run's clock at its start, on its schedule's (resumeClockOfRun); absent: 0. */
  clockStartMs?: number;
}

/**
 * The run's sinks, in the order each event reaches them: the results file first (nothing else sees
 * a result before it is appended), then the per-second outputs, the stop conditions, the setup
 * check, the run's end (which the two before it halt through) and its progress.
 */
function sinksOf(input: DriveInput, outputs: OutputsConfig, handle: RunHandle, redact: Redactor, control: { fail(): void }): RunSink[] {
  const { config, hooks, counts, target } = input;
  const end = runEndSink((by, detail) => handle.halt(by, detail));
  // A result counts (onRecorded) only once the results file wrote its line.
  let counting: RunSink[] = [];
  const recorded = (sample: Sample): void => {
    for (const sink of counting) sink.onRecorded!(sample);
  };
  const sinks = [
    resultsSink(input.runDir, control, recorded),
    outputsSink(outputs, {
      runDir: input.runDir, runStartMs: handle.runStartMs, openedAtMs: handle.openedAtMs, redact,
      ...(counts.outputContext ? { outputContext: counts.outputContext } : {}), ...(hooks.onInterval ? { onInterval: hooks.onInterval } : {}),
    }, control),
    stopConditionsSink(stopOptionsOf(config, counts.thresholdAborts), handle.openedAtMs, end),
    setupCheckSink(target, end),
    end,
    progressSink(counts, handle.ledger, hooks),
  ];
  counting = sinks.filter((sink) => sink.onRecorded !== undefined);
  return sinks;
}

/** The run's outcome from what its sinks said (and a failure that ended the pump, if one did). */
function outcomeOf(end: SinkOutcome, abortSignal: AbortSignal, thrown: { error: unknown } | null): DriveOutcome {
  const base = { dropped: end.dropped ?? 0, unrecordedUnits: end.unrecordedUnits ?? 0, outputs: end.outputs ?? [] };
  if (thrown) return { status: 'failed', stopReason: String(thrown.error), failure: thrown.error, ...base };
  // A full disk: results.ndjson's failure first (the source of truth), else timeline.ndjson's.
  if (end.failure) return { status: 'failed', stopReason: end.failure.message, failure: end.failure, ...base };
  if (end.abort) return { status: 'aborted', stopReason: end.abort.detail, abort: end.abort, ...base };
  // Requests cancelled by a hard stop were not recorded: the run is not complete, whatever else finished.
  const stop = end.stop?.reason ?? (abortSignal.aborted ? 'interrupted' : null);
  if (stop === 'budget-exhausted') return { status: 'budget-exhausted', stopReason: end.stop!.detail, ...base };
  if (stop === 'interrupted') return { status: 'interrupted', stopReason: 'interrupted by a signal', ...base };
  return { status: 'completed', ...base };
}

/** Builds the run's sinks, pumps the runner's events to them in order (sinks/pump.ts), and collects their outcomes. */
export async function drive(input: DriveInput): Promise<DriveOutcome> {
  const { config, hooks, counts } = input;
  const redact = runRedactor(config, input.target.apiKey, hooks.credentials);
  const outputs = outputsConfigOf(config);
  await prepareOutputs(outputs, counts.outputContext);
  // --workers N: N loops in worker threads, their events joined here (session/workers/).
  if (counts.workers) await counts.workers.ready;
  const handle = counts.workers
    ? counts.workers.start(hooks)
    : startRun(input.source, { ...runnerOptionsOf(config, input.client, input.target, counts, input.grading ?? {}, hooks), clockStartMs: input.clockStartMs ?? 0 });
  let failed = false;
  const sinks = sinksOf(input, outputs, handle, redact, { fail: () => { failed = true; handle.cancel(); } });
  const thrown = await pumpEvents(handle.events, sinks, { recordable: recordableEvents(recordingConfigOf(config), redact), failed: () => failed });
  return outcomeOf(await closeSinks(sinks), hooks.abort, thrown);
}
