// A whole run: prepare (nothing sent on bad input), run, append every result, finish run.json, report.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runChecks, type JudgeRequest } from '../checks/index.js';
import { DEFAULT_BACKOFF, withRetries } from '../runner/backoff.js';
import type { KbClient } from '../client/index.js';
import { createClient } from '../client/index.js';
import { createRedactor } from '../client/redact.js';
import type { RunInfo, RunStatus } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { Summary } from '../domain/summary.js';
import { isoNow, monotonicMs } from '../runner/clock.js';
import { startRun, type RunEvent } from '../runner/run.js';
import type { StopReason } from '../runner/gate.js';
import type { CheckFn } from '../runner/send.js';
import { ResultsFile, readSamplesSync } from '../store/results-file.js';
import { remainingUnits, resumeStateFrom } from '../store/resume.js';
import { defaultRunDir, ensureRunDir, readRunInfo, RUN_FILES, writeRunInfo } from '../store/run-dir.js';
import { AbortedError, InputError } from '../domain/errors.js';
import { recordableOptions, type RunSessionOptions } from './options.js';
import { resumeOptions } from './resume-options.js';
import { preflight } from './preflight.js';
import { narrowPrepared, prepareRun, type PreparedRun } from './prepare.js';
import type { WorkItem } from '../plan/types.js';
import { finishReports } from './finish.js';
import { resolveTarget, type EmbeddedLauncher, type ResolvedTarget } from './target.js';

export interface ProgressInfo {
  done: number;
  total: number;
  errors: number;
  creditsUsed: number;
}

export interface SessionHooks {
  launchEmbedded: EmbeddedLauncher;
  /** Soft stop (first Ctrl-C): no new requests; in-flight ones finish. */
  stop: AbortSignal;
  /** Hard stop (grace over, or a second Ctrl-C): in-flight requests are cancelled. */
  abort: AbortSignal;
  onStart?(info: { runDir: string; total: number; done: number; baseUrl: string; embedded: boolean; warnings: string[] }): void;
  onProgress?(progress: ProgressInfo, sample: Sample): void;
  onStopping?(reason: StopReason, detail: string): void;
}

/** Narrows a run to part of its plan and labels it (an estimate's sample). */
export interface SessionOverrides {
  select?: (prepared: PreparedRun) => WorkItem[];
  /** Recorded in run.json's options, e.g. `estimate-sample`. */
  purpose?: string;
}

export interface SessionResult {
  runDir: string;
  run: RunInfo;
  summary: Summary;
}

/**
 * Judge checks ask a chat of the service, under the run's timeout and retry policy. A hard stop
 * during a judge is a cancellation (resume grades the answer again), never a failed check.
 */
function judgePort(client: KbClient, target: ResolvedTarget, options: RunSessionOptions): CheckFn {
  // The request's own signal: it also carries the run's cancel when the run stops itself.
  const ask = (request: JudgeRequest, signal: AbortSignal) =>
    client.ask({
      boardId: request.board_id ?? target.boardId, chatId: request.chat_id ?? target.chatId, prompt: request.prompt,
      ...(request.model ? { model: request.model } : {}), streaming: false, signal, timeoutMs: options.timeoutMs,
    });
  return async (specs, subject, requestSignal) => {
    const results = await runChecks(specs, subject, {
      judge: async (request) => {
        const answer = await withRetries(() => ask(request, requestSignal), { ...DEFAULT_BACKOFF, retries: options.retries }, requestSignal);
        return { text: answer.text, credits_used: answer.creditsUsed };
      },
    });
    if (requestSignal.aborted) throw new AbortedError('cancelled while grading');
    return results;
  };
}

function initialRunInfo(prepared: PreparedRun, options: RunSessionOptions, target: ResolvedTarget, previous: RunInfo | null, purpose?: string): RunInfo {
  const { plan, suite } = prepared;
  return {
    run_id: previous?.run_id ?? randomUUID(),
    tool: { name: 'kbbench', version: options.toolVersion },
    suite: { name: suite.name, path: suite.path, sha256: suite.sha256 },
    plan: { items: plan.counts.items, requests: plan.counts.requests, threads: plan.counts.threads, models: plan.models },
    options: { ...recordableOptions(options), ...(purpose ? { purpose } : {}) },
    target: { base_url: target.embedded ? 'embedded' : target.baseUrl, embedded: target.embedded, board_id: target.boardId, chat_id: target.chatId },
    thresholds: prepared.thresholds,
    started_at: previous?.started_at ?? isoNow(),
    finished_at: null,
    duration_ms: null,
    status: 'running',
  };
}

/** Requests the run means to send. An open loop cycles through the units (a thread start sends all its turns). */
function plannedTotal(options: RunSessionOptions, prepared: PreparedRun): number {
  if (options.rate === undefined || options.durationMs === undefined) return prepared.plan.counts.requests;
  const starts = Math.floor((options.rate * options.durationMs) / 1000);
  const sizes = prepared.units.map((u) => (u.kind === 'case' ? 1 : u.thread.turns.length));
  if (sizes.length === 0) return 0;
  const perCycle = sizes.reduce((a, b) => a + b, 0);
  const rest = sizes.slice(0, starts % sizes.length).reduce((a, b) => a + b, 0);
  return Math.floor(starts / sizes.length) * perCycle + rest;
}

export async function runSession(requested: RunSessionOptions, hooks: SessionHooks, overrides: SessionOverrides = {}): Promise<SessionResult> {
  const previous = requested.resumeDir ? readRunInfo(requested.resumeDir) : null;
  const resumed = previous ? resumeOptions(previous, requested) : { options: requested, warnings: [] };
  const options = resumed.options;
  const full = await prepareRun(options);
  const prepared = overrides.select ? narrowPrepared(full, overrides.select(full)) : full;
  const startedAt = previous?.started_at ?? isoNow();
  const runDir = resolve(options.resumeDir ?? options.outDir ?? defaultRunDir(options.reportsRoot, prepared.suite.name, startedAt));
  if (!previous) assertFreshRunDir(runDir);
  const finished = previous ? readSamplesSync(join(runDir, RUN_FILES.results)) : [];
  const target = await resolveTarget(options, prepared.suite, hooks.launchEmbedded);
  // A fresh embedded service knows none of the earlier conversations: half-done threads are rebuilt.
  const units = previous ? remainingUnits(prepared.units, resumeStateFrom(finished), !target.embedded) : prepared.units;
  const client = createClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, auth: options.auth, ...(options.dialect ? { dialect: options.dialect } : {}) });
  try {
    await preflight(client, target, hooks.abort);
    const info = { ...initialRunInfo(prepared, options, target, previous, overrides.purpose), started_at: startedAt };
    ensureRunDir(runDir);
    writeRunInfo(runDir, info);
    const t0 = monotonicMs();
    const total = plannedTotal(options, prepared);
    const warnings = [...prepared.warnings, ...resumed.warnings, ...resumeWarnings(previous, prepared)];
    hooks.onStart?.({ runDir, total, done: finished.length, baseUrl: target.baseUrl, embedded: target.embedded, warnings });
    const previousSpent = sumCredits(finished) + (previous?.replay_credits ?? 0);
    const outcome = await drive(units, options, hooks, client, target, runDir, { total, done: finished.length, previousSpent });
    const durationMs = (previous?.duration_ms ?? 0) + (monotonicMs() - t0);
    const run: RunInfo = {
      ...info, finished_at: isoNow(), duration_ms: Math.round(durationMs), status: outcome.status, dropped: outcome.dropped,
      replay_credits: roundCredits((previous?.replay_credits ?? 0) + outcome.unrecordedCredits),
      ...(outcome.stopReason ? { stop_reason: outcome.stopReason } : {}),
    };
    writeRunInfo(runDir, run);
    const summary = await finishReports(runDir, run);
    if (outcome.failure) throw outcome.failure;
    return { runDir, run, summary };
  } finally {
    await client.close();
    await target.stop();
  }
}

/** A new run never appends to an old one: that would mix two runs' results under one run id. */
function assertFreshRunDir(runDir: string): void {
  if (existsSync(join(runDir, RUN_FILES.results))) {
    throw new InputError('this directory already holds a run: continue it with --resume, or name a new one with --out', { file: runDir, field: '--out' });
  }
}

function resumeWarnings(previous: RunInfo | null, prepared: PreparedRun): string[] {
  if (!previous || previous.suite.sha256 === prepared.suite.sha256) return [];
  return [`the suite changed since this run started (sha256 differs): finished items keep their earlier results`];
}

/** Credits are reported to 5 decimals; so are sums of them. */
const roundCredits = (credits: number): number => Math.round(credits * 100_000) / 100_000;

/** What a resumed run had already spent: answers and the judges that graded them. */
const sumCredits = (samples: Sample[]): number =>
  samples.reduce((a, s) => a + (s.credits_used ?? 0) + s.checks.reduce((b, c) => b + (c.credits_used ?? 0), 0), 0);

interface DriveOutcome {
  status: RunStatus;
  /** Spent by requests without a result line (replayed turns). */
  unrecordedCredits: number;
  stopReason?: string;
  dropped: number;
  failure?: unknown;
}

async function drive(
  units: PreparedRun['units'], options: RunSessionOptions, hooks: SessionHooks, client: KbClient, target: ResolvedTarget,
  runDir: string, counts: { total: number; done: number; previousSpent: number },
): Promise<DriveOutcome> {
  const results = new ResultsFile(join(runDir, RUN_FILES.results), createRedactor(target.apiKey));
  const handle = startRun(units, {
    client, target: { boardId: target.boardId, chatId: target.chatId }, concurrency: options.concurrency,
    ...(options.rate !== undefined && options.durationMs !== undefined
      ? { open: { ratePerS: options.rate, durationMs: options.durationMs, maxInFlight: options.maxInFlight ?? Math.max(options.concurrency, 64) } }
      : {}),
    timeoutMs: options.timeoutMs, retries: options.retries,
    budget: {
      ...(options.maxCredits !== undefined ? { maxCredits: Math.max(0, options.maxCredits - counts.previousSpent) } : {}),
      ...(options.minRemaining !== undefined ? { minRemaining: options.minRemaining } : {}),
    },
    check: judgePort(client, target, options), stop: hooks.stop, abort: hooks.abort,
  });
  const progress: ProgressInfo = { done: counts.done, total: counts.total, errors: 0, creditsUsed: counts.previousSpent };
  let stop: StopReason | null = null;
  let stopDetail = '';
  let recordedCredits = 0;
  const unrecorded = (): number => Math.max(0, handle.ledger.spent - recordedCredits);
  let dropped = 0;
  try {
    for await (const event of handle.events as AsyncIterable<RunEvent>) {
      if (event.type === 'sample') {
        results.append(event.sample);
        recordedCredits += sumCredits([event.sample]);
        progress.done += 1;
        if (event.sample.outcome !== 'ok' && event.sample.outcome !== 'skipped') progress.errors += 1;
        progress.creditsUsed = counts.previousSpent + handle.ledger.spent;
        hooks.onProgress?.(progress, event.sample);
      } else if (event.type === 'stopped') {
        stop = event.reason;
        stopDetail = event.detail;
        hooks.onStopping?.(event.reason, event.detail);
      } else {
        dropped += event.count;
      }
    }
  } catch (failure) {
    return { status: 'failed', stopReason: String(failure), dropped, failure, unrecordedCredits: unrecorded() };
  } finally {
    results.close();
  }
  // Requests cancelled by a hard stop were not recorded: the run is not complete, whatever else finished.
  if (stop === null && hooks.abort.aborted) stop = 'interrupted';
  const unrecordedCredits = unrecorded();
  if (stop === 'budget-exhausted') return { status: 'budget-exhausted', stopReason: stopDetail, dropped, unrecordedCredits };
  if (stop === 'interrupted') return { status: 'interrupted', stopReason: 'interrupted by a signal', dropped, unrecordedCredits };
  return { status: 'completed', dropped, unrecordedCredits };
}
