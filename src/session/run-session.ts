// A whole run, orchestrated: prepare (nothing sent on bad input), resume state, target, drive the
// runner, finish run.json, build the reports. It owns nothing: each step is another module's.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createClient } from '../client/index.js';
import { fromUnits, roundCredits, toUnits } from '../credits/units.js';
import { InputError } from '../domain/errors.js';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { Summary } from '../domain/summary.js';
import type { PlanUnit } from '../plan/types.js';
import { isoNow, monotonicMs, type StopReason, type UnitSource } from '../runner/index.js';
import { readResumeState, remainingUnits, type ResumeState } from '../store/resume.js';
import { defaultRunDir, ensureRunDir, readRunInfo, RUN_FILES, writeRunInfo } from '../store/run-dir.js';
import { drive, type ProgressInfo } from './drive.js';
import { finishReports } from './finish.js';
import type { RunSessionOptions } from './options.js';
import { preflight } from './preflight.js';
import { narrowPrepared, prepareRun, type PreparedRun } from './prepare.js';
import { resumeOptions } from './resume-options.js';
import { initialRunInfo, plannedTotal } from './run-info.js';
import { resolveTarget, type EmbeddedLauncher } from './target.js';

export type { ProgressInfo } from './drive.js';

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
  select?: (prepared: PreparedRun) => PlanUnit[];
  /** Recorded in run.json's options, e.g. `estimate-sample`. */
  purpose?: string;
}

export interface SessionResult {
  runDir: string;
  run: RunInfo;
  summary: Summary;
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
  const state = previous ? await readResumeState(runDir, prepared.plan) : null;
  const target = await resolveTarget(options, prepared.suite, hooks.launchEmbedded);
  // A fresh embedded service knows none of the earlier conversations: half-done threads are rebuilt.
  const source: UnitSource = state ? remainingUnits(prepared.plan, state, !target.embedded) : prepared.plan;
  const client = createClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, auth: options.auth, ...(options.dialect ? { dialect: options.dialect } : {}) });
  try {
    await preflight(client, target, hooks.abort);
    const info = { ...initialRunInfo(prepared, options, target, previous, overrides.purpose), started_at: startedAt };
    ensureRunDir(runDir);
    writeRunInfo(runDir, info);
    const t0 = monotonicMs();
    const total = plannedTotal(options, prepared);
    const done = state?.lines ?? 0;
    const warnings = [...(target.notice ? [target.notice] : []), ...prepared.warnings, ...resumed.warnings, ...resumeWarnings(previous, prepared, state)];
    hooks.onStart?.({ runDir, total, done, baseUrl: target.baseUrl, embedded: target.embedded, warnings });
    const replayUnits = toUnits(previous?.replay_credits ?? 0);
    const outcome = await drive(source, options, hooks, client, target, runDir, { total, done, previousUnits: (state?.creditUnits ?? 0) + replayUnits });
    const durationMs = (previous?.duration_ms ?? 0) + (monotonicMs() - t0);
    const run: RunInfo = {
      ...info, finished_at: isoNow(), duration_ms: Math.round(durationMs), status: outcome.status, dropped: outcome.dropped,
      replay_credits: roundCredits(fromUnits(replayUnits + outcome.unrecordedUnits)),
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

function resumeWarnings(previous: RunInfo | null, prepared: PreparedRun, state: ResumeState | null): string[] {
  const warnings: string[] = [];
  if (previous && previous.suite.sha256 !== prepared.suite.sha256) {
    warnings.push('the suite changed since this run started (sha256 differs): finished items keep their earlier results');
  }
  if (state && state.foreign > 0) warnings.push(`${state.foreign} result line(s) name no item of this plan; they are kept and not sent again`);
  return warnings;
}
