// Drives the runner: every result appended to results.ndjson (and counted only once it is there),
// progress reported, and how the run ended.
import { join, resolve } from 'node:path';
import type { KbClient } from '../client/index.js';
import { createRedactor } from '../client/redact.js';
import { fromUnits, sampleCreditUnits, toUnits } from '../credits/units.js';
import type { LoadSpec } from '../domain/load.js';
import type { RunStatus } from '../domain/run.js';
import type { AnswerReuse } from '../domain/answer-reuse.js';
import type { Sample } from '../domain/sample.js';
import type { LiveInterval } from '../metrics/interval-recorder.js';
import type { OutputReport } from '../domain/output.js';
import { loadOutputs, type OutputContext } from '../outputs/index.js';
import { startRunOutputs } from '../outputs/run-outputs.js';
import { monotonicMs, startRun, type RunnerOptions, type RunEvent, type StopReason, type UnitSource } from '../runner/index.js';
import { ResultsFile } from '../store/results-file.js';
import { RUN_FILES } from '../store/run-dir.js';
import { readResults } from '../store/results-reader.js';
import { loadShapeOf } from './load-shape.js';
import { startLoopDelayProbe } from './loop-delay.js';
import { judgePort, type GradingDeps } from './judge-port.js';
import { createSetupCheck } from './setup-check.js';
import { createStopConditions, type StopDecision } from './stop-conditions.js';
import type { ThresholdAbort } from '../domain/suite.js';
import { loopOf, probedOf } from '../load/index.js';
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
    ...(options.stop.maxErrors !== undefined ? { maxErrors: options.stop.maxErrors } : {}),
    ...(options.stop.maxErrorRate !== undefined ? { maxErrorRate: options.stop.maxErrorRate } : {}),
    ...(options.stop.errorWindowMs !== undefined ? { errorWindowMs: options.stop.errorWindowMs } : {}),
  };
}

function mixOf(spec: LoadSpec, seed: number | undefined, maxWeight: number) {
  return spec.mix === undefined || spec.mix === 'sequential' ? {} : { mix: { kind: spec.mix, seed: seed ?? 1, maxWeight } };
}

/** A resumed run's recorded lines, read when its loop starts (a replay skips their records: load/kinds/traffic/resume.ts). */
const recordedOf = (runDir: string) => () => readResults(runDir);

/** The runner's options of a run: the one loop's, or each worker thread's (session/workers/). */
export function runnerOptionsOf(
  options: RunConfig, client: KbClient, target: ResolvedTarget, counts: Pick<DriveCounts, 'previousUnits' | 'maxWeight' | 'reuse'>, grading: GradingDeps,
  signals: { stop: AbortSignal; abort: AbortSignal },
): RunnerOptions {
  const spec = specOf(options);
  return {
    client, target: { boardId: target.boardId, chatId: target.chatId }, concurrency: askedConcurrency(options.load),
    load: loopOf(spec, { shard: options.placement.shard ?? null, ...(options.plan.seed !== undefined ? { seed: options.plan.seed } : {}), ...(options.plan.models?.length === 1 ? { model: options.plan.models[0]! } : {}), ...(options.placement.resumeDir !== undefined ? { recorded: recordedOf(resolve(options.placement.resumeDir)), conversationsGone: target.embedded } : {}) }), ...mixOf(spec, options.plan.seed, counts.maxWeight),
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
  if (counts.outputContext && options.outputs.live?.length) await loadOutputs(options.outputs.live);
  // --workers N: N loops in worker threads, their events joined here (session/workers/).
  if (counts.workers) await counts.workers.ready;
  const handle = counts.workers ? counts.workers.start(hooks) : startRun(source, runnerOptionsOf(options, client, target, counts, grading, hooks));
  const timeline = startRunOutputs({
    runDir, runStartMs: handle.runStartMs, spec, shape: loadShapeOf(options), loopDelay: startLoopDelayProbe(),
    ...(options.outputs.live ? { outputs: options.outputs.live } : {}), ...(counts.outputContext ? { outputContext: counts.outputContext } : {}),
    ...(hooks.onInterval ? { onInterval: hooks.onInterval } : {}),
  });
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
  let probing = probedOf(spec) !== null;
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
