// A whole run, orchestrated: prepare (nothing sent on bad input), resume state, target, drive the
// runner, finish run.json, build the reports. It owns nothing: each step is another module's.
import { join, resolve } from 'node:path';
import { createClient } from '../client/index.js';
import { fromUnits, roundCredits, toUnits } from '../credits/units.js';
import { InputError, StorageError } from '../domain/errors.js';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { Summary } from '../domain/summary.js';
import type { PlanUnit } from '../plan/types.js';
import { isoNow, type StopReason, type UnitSource } from '../runner/index.js';
import { readResumeState, remainingUnits, type ResumeState } from '../store/resume.js';
import { assertNoLinkedRunFiles, assertOutDirIsOurs, claimRunDir, defaultRunDir, ensureRunDir, hasResults, readRunInfo, RUN_FILES, writeRunInfo } from '../store/run-dir.js';
import { acquireRunLock, takeOverNotice, type RunLock } from '../store/run-lock.js';
import { removeLeftovers } from '../store/leftovers.js';
import { droppedCountOf } from '../store/timeline-file.js';
import type { LiveInterval } from '../metrics/interval-recorder.js';
import type { OutputContext } from '../outputs/index.js';
import { drive, resumeClockOfRun, type ProgressInfo, type SweepEvent } from './drive.js';
import { askedConcurrency } from '../config/load-section.js';
import { finishReports } from './finish.js';
import type { RunConfig } from '../config/run-config.js';
import { preflight, preflightEmbeddings, preflightGrader } from './preflight.js';
import { makeGrader } from '../graders/index.js';
import { narrowPrepared, prepareRun, type PreparedRun } from './prepare.js';
import { resumeOptions } from './resume-options.js';
import { describeLoad, noResumeOf, probedOf, startsOnWholeSecond } from '../load/index.js';
import { initialRunInfo, plannedTotal } from './run-info.js';
import { startDurationHeartbeat } from './duration-heartbeat.js';
import { waitForStartAt, waitForWholeSecond } from './start-at.js';
import { resolveTarget, type EmbeddedLauncher } from './target.js';
import { setUpReuse } from './reuse-answers.js';
import { chooseWorkers, isLoopback } from './workers/count.js';
import { spawnWorkers, type WorkerPool } from './workers/pool.js';

export type { ProgressInfo } from './drive.js';

export interface SessionHooks {
  launchEmbedded: EmbeddedLauncher;
  /** Soft stop (first Ctrl-C): no new requests; in-flight ones finish. */
  stop: AbortSignal;
  /** Hard stop (grace over, or a second Ctrl-C): in-flight requests are cancelled. */
  abort: AbortSignal;
  /** `--start-at`: the run is ready and waits for the instant (nothing sent yet). */
  onWaitStart?(info: { startAt: string }): void;
  /** `load`: a time-bound run's planned load and in-flight cap, in words (null for a closed loop). */
  onStart?(info: { runDir: string; total: number; done: number; baseUrl: string; embedded: boolean; warnings: string[]; load?: string | null; workers?: number; demo?: boolean }): void;
  onProgress?(progress: ProgressInfo, sample: Sample): void;
  onStopping?(reason: StopReason, detail: string): void;
  /** Once per second of the run: the last seconds' rates, in flight, p95 and errors (a live line). */
  onInterval?(live: LiveInterval): void;
  /** A sweep's probes are done and its rates begin. */
  onSweep?(sweep: SweepEvent): void;
  /** Every credential the run knows, the environment's included (redact-sample.ts runCredentials). */
  credentials?: readonly string[];
}

/** Narrows a run to part of its plan and labels it (an estimate's sample). */
export interface SessionOverrides {
  select?: (prepared: PreparedRun) => PlanUnit[];
  /** Recorded in run.json's options, e.g. `estimate-sample`. */
  purpose?: string;
}

export interface SessionResult {
  runDir: string;
  run: RunInfo;
  summary: Summary;
}

export async function runSession(requested: RunConfig, hooks: SessionHooks, overrides: SessionOverrides = {}): Promise<SessionResult> {
  const previous = requested.placement.resumeDir ? readRunInfo(requested.placement.resumeDir) : null;
  const resumed = previous ? resumeOptions(previous, requested) : { options: requested, warnings: [] };
  const full = await prepareRun(resumed.options);
  const options = full.options;
  if (previous) assertSameSuite(previous, full, options);
  const prepared = overrides.select ? narrowPrepared(full, overrides.select(full)) : full;
  const startedAt = previous?.started_at ?? isoNow();
  const named = options.placement.resumeDir ?? options.outputs.outDir;
  let runDir = resolve(named ?? defaultRunDir(options.outputs.reportsRoot, prepared.suite.name, startedAt));
  if (!previous && named !== undefined) assertFreshRunDir(runDir);
  // A resume holds the directory's lock before it reads what is done: two resumes at once would
  // both send (and pay for) every missing item. Released at the end, or by the process's exit.
  let lock: RunLock | null = previous ? acquireRunLock(runDir, 'kbbench run --resume') : null;
  if (previous) {
    assertNoLinkedRunFiles(runDir);
    removeLeftovers(runDir);
  }
  const state = previous ? await readResumeState(runDir, prepared.plan) : null;
  if (state && state.duplicates > 0) throw duplicateLines(runDir, state);
  const target = await resolveTarget(options, prepared.suite, hooks.launchEmbedded);
  // A fresh embedded service knows none of the earlier conversations: half-done threads are rebuilt.
  const source: UnitSource = state ? remainingUnits(prepared.plan, state, !target.embedded) : prepared.plan;
  const reuse = await setUpReuse(options, prepared.plan, target).catch(async (error: unknown) => {
    await target.stop();
    throw error;
  });
  let heartbeat: ReturnType<typeof startDurationHeartbeat> | null = null;
  let pool: WorkerPool | null = null;
  const client = createClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, auth: options.target.auth, ...(options.target.apiKeyHeader ? { apiKeyHeader: options.target.apiKeyHeader } : {}), ...(options.target.dialect ? { dialect: options.target.dialect } : {}) });
  try {
    await preflight(client, target, hooks.abort, options.request);
    const grader = prepared.grader
      ? makeGrader(prepared.grader, { client, boardId: target.boardId, timeoutMs: options.request.timeoutMs, ...(options.grader.apiKey ? { apiKey: options.grader.apiKey } : {}) })
      : undefined;
    if (grader) await preflightGrader(grader, hooks.abort);
    await preflightEmbeddings(options, hooks.abort);
    // Worker threads start up before the wait for the start instant, so their start-up does not move t0.
    const workers = chooseWorkers({
      load: prepared.load, serviceHere: target.embedded || isLoopback(target.baseUrl), partial: previous !== null || overrides.select !== undefined,
      budget: options.budget.maxCredits !== undefined || options.budget.minRemaining !== undefined, reuse: reuse !== null, ...(options.placement.workers !== undefined ? { requested: options.placement.workers } : {}),
    });
    const replayUnits = toUnits(previous?.replay_credits ?? 0);
    const previousUnits = (state?.creditUnits ?? 0) + replayUnits;
    const maxWeight = prepared.load.mix === 'weighted' ? maxWeightOf(prepared.suite) : 1;
    if (workers.count > 1) pool = spawnWorkers({ ...prepared, options }, target, { previousUnits, maxWeight, suiteDefaults: prepared.suite.defaults, stop: hooks.stop }, workers.count);
    await pool?.ready;
    // A resume goes on with the earlier segments' drops and, for a replay, on the log's clock where it stopped
    // (load/kinds/traffic/resume.ts): one account, one set of stage windows. Read before the wait for the start instant.
    const droppedBefore = previous ? await droppedSoFar(runDir, previous) : 0;
    const clockStartMs = await resumeClockOfRun(options, target, { suiteDefaults: prepared.suite.defaults });
    if (options.placement.startAt !== undefined) {
      hooks.onWaitStart?.({ startAt: options.placement.startAt });
      await waitForStartAt(options.placement.startAt, { signal: hooks.stop });
    } else if (startsOnWholeSecond(prepared.load)) await waitForWholeSecond(hooks.stop);
    // Shards that waited for one instant label their start with it (merge lines them up by started_at).
    const startLabel = previous ? startedAt : options.placement.startAt !== undefined ? isoNow() : startedAt;
    let info: RunInfo = { ...initialRunInfo(prepared, options, target, previous, overrides.purpose), started_at: startLabel, ...(previous ? { dropped: droppedBefore } : {}) };
    // How many client event loops ran (not only how many were asked for): part of how the run was measured.
    info = { ...info, config: { ...info.config, placement: { ...info.config.placement, workers: workers.count } } };
    if (!previous) {
      // A default name is claimed atomically (two runs of one suite in one second get two
      // directories); a named one is locked, then checked again: another run may have begun there.
      if (named === undefined) runDir = claimRunDir(runDir);
      else ensureRunDir(runDir);
      lock = acquireRunLock(runDir, 'kbbench run');
      assertFreshRunDir(runDir);
    }
    // The duration of earlier segments, also of one killed with -9 (its heartbeat's last value).
    const priorMs = previous?.duration_ms ?? 0;
    info = { ...info, duration_ms: previous ? Math.round(priorMs) : null };
    writeRunInfo(runDir, info);
    heartbeat = startDurationHeartbeat(priorMs, (durationMs) => writeRunInfo(runDir, { ...info, duration_ms: durationMs }));
    const total = plannedTotal(options, prepared);
    // Lines of no item of this plan (a changed suite's dropped cases) are not progress on it.
    const done = state ? state.lines - state.foreign : 0;
    const tookOver = lock ? takeOverNotice(lock) : null;
    const warnings = [...(tookOver ? [tookOver] : []), ...(target.notice ? [target.notice] : []), ...prepared.warnings, ...resumed.warnings, ...resumeWarnings(previous, prepared, state)];
    if (workers.notice) warnings.push(workers.notice);
    if (reuse) warnings.push(...reuse.notices);
    hooks.onStart?.({ runDir, total, done, baseUrl: target.baseUrl, embedded: target.embedded, demo: target.knowledgeBase?.demo === true, warnings, load: describeLoad(prepared.load, { concurrency: askedConcurrency(options.load), ...(options.placement.shard ? { shard: options.placement.shard } : {}) }), workers: workers.count });
    // A sweep's rates are known once its probes are done: run.json records them as its load (its kind says how).
    const onSweep = (sweep: SweepEvent): void => {
      const { type: _type, ...found } = sweep;
      const probed = probedOf(prepared.load);
      if (probed) info = { ...info, load: { ...info.load, ...probed.recorded(found, prepared.load) } };
      writeRunInfo(runDir, info);
      hooks.onSweep?.(sweep);
    };
    const outcome = await drive({
      source, config: options, clockStartMs, hooks: { ...hooks, onSweep }, client, target, runDir,
      counts: { total, done, previousUnits, thresholdAborts: prepared.thresholdAborts, maxWeight, suiteDefaults: prepared.suite.defaults, ...(pool ? { workers: pool } : {}), ...(reuse ? { reuse: reuse.index } : {}), outputContext: outputContextOf(info, options) },
      grading: { ...(grader ? { grader } : {}), ...(prepared.knowledge ? { knowledge: prepared.knowledge } : {}) },
    });
    heartbeat.stop();
    const durationMs = priorMs + heartbeat.elapsedMs();
    const run: RunInfo = {
      ...info, finished_at: isoNow(), duration_ms: Math.round(durationMs), status: outcome.status, dropped: droppedBefore + outcome.dropped,
      replay_credits: roundCredits(fromUnits(replayUnits + outcome.unrecordedUnits)),
      ...(outcome.stopReason ? { stop_reason: outcome.stopReason } : {}),
      ...(outcome.abort ? { abort: outcome.abort } : {}),
      ...(outcome.outputs.length > 0 ? { outputs: outcome.outputs } : {}),
    };
    if (outcome.failure instanceof StorageError) throw storageStop(outcome.failure, runDir, run, options.plan.suitePath);
    writeRunInfo(runDir, run);
    // The reports read files only: the service's connections (and their buffers) go before they are built.
    await client.close();
    const summary = await finishReports(runDir, run, { plan: prepared.plan }).catch((error: unknown) => {
      if (!(error instanceof StorageError)) throw error;
      throw new StorageError(`${error.message}. The run's results are whole in ${RUN_FILES.results}: free some space, then rebuild its reports with \`kbbench report ${runDir}\``, error.file, error.reason);
    });
    if (outcome.failure) throw outcome.failure;
    return { runDir, run, summary };
  } finally {
    heartbeat?.stop();
    pool?.close();
    await client.close();
    await target.stop();
    lock?.release();
  }
}

/**
 * The starts earlier segments dropped: their timeline counts each (a segment killed with -9 wrote no
 * run.json `dropped`), run.json's sum is whole when a full disk cut the timeline; the larger is kept.
 */
async function droppedSoFar(runDir: string, previous: RunInfo): Promise<number> {
  return Math.max((await droppedCountOf(runDir)) ?? 0, previous.dropped ?? 0);
}

/** The labels of the live-metrics outputs: the run, its suite, its shard (a distributed run is one picture by them). */
function outputContextOf(info: RunInfo, options: RunConfig): OutputContext {
  const shard = options.placement.shard ? `${options.placement.shard.index}/${options.placement.shard.count}` : '1/1';
  return { runId: info.run_id, suite: info.suite.name, shard, models: info.plan.models };
}

function maxWeightOf(suite: PreparedRun['suite']): number {
  let max = 1;
  for (const c of suite.cases) max = Math.max(max, c.weight ?? 1);
  for (const t of suite.threads) max = Math.max(max, t.weight ?? 1);
  return max;
}

/**
 * A result that could not be written (a full disk) ends the run: run.json is marked failed when it
 * can be, and the message names the file and the way on (a resume sends only what is missing).
 */
function storageStop(failure: StorageError, runDir: string, run: RunInfo, suitePath: string): StorageError {
  let marked = true;
  try {
    writeRunInfo(runDir, run);
  } catch {
    marked = false;
  }
  const state = marked ? `${RUN_FILES.run} is marked failed` : `${RUN_FILES.run} could not be marked failed either`;
  const noResume = noResumeOf(run.load.spec);
  const next = noResume === null ? `continue with \`kbbench run ${suitePath} --resume ${runDir}\`` : `start a new run (${noResume.split(':')[0]})`;
  return new StorageError(
    `${failure.message}. The results written before it are whole and ${state}: free some space, then ${next}`,
    failure.file,
    failure.reason,
  );
}

/**
 * Two processes wrote this run at once (an older kbbench had no lock): some items have two lines,
 * paid twice. Going on would build counts, budget and reports on them; merge and report refuse
 * the same, naming an item.
 */
function duplicateLines(runDir: string, state: ResumeState): InputError {
  return new InputError(
    `${state.duplicates} result line(s) record an item that already has one (first: ${state.duplicateExample}): two processes wrote this run at once. ` +
      'Keep one line per item (the first), then resume',
    { file: join(runDir, RUN_FILES.results), field: '--resume' },
  );
}

/** A new run never appends to an old one: that would mix two runs' results under one run id. */
function assertFreshRunDir(runDir: string): void {
  assertOutDirIsOurs(runDir, '--out');
  if (hasResults(runDir)) {
    throw new InputError('this directory already holds a run: continue it with --resume, or name a new one with --out', { file: runDir, field: '--out' });
  }
}

/**
 * A resume sends the rest of the run's own suite: a suite whose content differs would mix two
 * suites' items under one run id. --allow-changed-suite lets an edited file of the same suite
 * name go on (finished items keep their results; see README), never another suite.
 */
function assertSameSuite(previous: RunInfo, prepared: PreparedRun, options: RunConfig): void {
  if (previous.suite.sha256 === prepared.suite.sha256) return;
  const was = `${previous.suite.path} (suite "${previous.suite.name}", sha256 ${previous.suite.sha256.slice(0, 12)})`;
  const now = `${prepared.suite.path} (suite "${prepared.suite.name}", sha256 ${prepared.suite.sha256.slice(0, 12)})`;
  if (!options.record.allowChangedSuite) {
    throw new InputError(
      `the run was started with ${was}, and this suite is ${now}: a resume must send the same suite. ` +
        'Start a new run for another suite, or pass --allow-changed-suite to continue with an edited file of the same suite',
      { file: prepared.suite.path, field: '--resume' },
    );
  }
  if (previous.suite.name !== prepared.suite.name) {
    throw new InputError(`--allow-changed-suite continues an edited file of the same suite, and ${now} is another suite than ${was}`, { file: prepared.suite.path, field: '--resume' });
  }
}

function resumeWarnings(previous: RunInfo | null, prepared: PreparedRun, state: ResumeState | null): string[] {
  const warnings: string[] = [];
  if (previous && previous.suite.sha256 !== prepared.suite.sha256) {
    warnings.push(`--allow-changed-suite: the suite file changed since this run started (sha256 ${previous.suite.sha256.slice(0, 12)} → ${prepared.suite.sha256.slice(0, 12)}): finished items keep their earlier results, only the new plan's unfinished items are sent`);
  }
  // A replay's items are its log's records, which it reads itself (load/kinds/traffic/resume.ts): its plan has none to match.
  if (state && state.foreign > 0 && prepared.plan.counts.items > 0) warnings.push(`${state.foreign} result line(s) name no item of this plan; they are kept and not sent again`);
  return warnings;
}
