// `kbbench regrade`: a derived run that judges a run's stored answers with the suite's current checks, sending nothing to the service.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient } from '../client/index.js';
import { InputError } from '../domain/errors.js';
import { REGRADE_LISTED, type RegradeInfo, type RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { GraderSpec, Suite } from '../domain/suite.js';
import { isModelGraded, makeGrader, suiteChecks } from '../graders/index.js';
import type { PlanRequest, PlanUnit } from '../plan/types.js';
import { createIdOf, formatItemId } from '../plan/item-id.js';
import { isoNow } from '../runner/index.js';
import { NOTHING_SPENT } from '../store/answer-key.js';
import { ResultsFile } from '../store/results-file.js';
import { assertOutDirIsOurs, assertRunDir, claimRunDir, defaultRunDir, ensureRunDir, hasResults, RUN_FILES, writeRunInfo } from '../store/run-dir.js';
import { acquireRunLock } from '../store/run-lock.js';
import { finishReports } from '../session/finish.js';
import { judgePort } from '../session/judge-port.js';
import { preflightGrader } from '../session/preflight.js';
import { prepareRun } from '../session/prepare.js';
import { initialRunInfo } from '../session/run-info.js';
import type { SessionResult } from '../session/run-session.js';
import type { ResolvedTarget } from '../session/target.js';
import type { CheckFn } from '../runner/index.js';
import { judgeAgain, keptLine, notJudgedLine, regradeStep } from './judge-again.js';
import { regradeConfig, type RegradeAsked } from './regrade-config.js';
import { readStoredLines, type StoredLines } from './stored-lines.js';

/** Answers judged at once: a grader is a shared service (grader-check grades 4 at a time too). */
const CONCURRENCY = 4;

/** What a regrade says as it goes (the CLI prints it). */
export interface RegradeHooks {
  signal: AbortSignal;
  onStart?(info: { runDir: string; sourceDir: string; total: number; warnings: string[] }): void;
}

/**
 * The source's answers are a recording: asking a grader chat of the service would send to it. A
 * regrade grades with an outside (OpenAI-compatible) grader; a chat grader is refused before anything.
 */
function assertOutsideGrader(suite: Suite, grader: GraderSpec | undefined): void {
  if (grader?.kind === 'chat') {
    throw new InputError(
      `kbbench regrade sends nothing to the service, and the grader is its chat ${grader.chat_id}: grade with an outside grader (--grader-url URL --grader-model M), or run the suite again`,
      { file: suite.path, field: 'grader.chat_id' },
    );
  }
  for (const spec of suiteChecks(suite)) {
    if (!isModelGraded(spec) || spec.value.chat_id === undefined) continue;
    throw new InputError(
      `kbbench regrade sends nothing to the service, and this ${spec.type} check asks its chat ${spec.value.chat_id}: grade it with an outside grader (the suite's grader: { openai: … })`,
      { file: spec.location?.file ?? suite.path, ...(spec.location?.line !== undefined ? { line: spec.location.line } : {}), field: 'chat_id' },
    );
  }
}

/** A new run never appends to an old one: that would mix two runs' results under one run id. */
function assertFreshRunDir(runDir: string): void {
  assertOutDirIsOurs(runDir, '--out');
  if (hasResults(runDir)) throw new InputError('this directory already holds a run: name a new one with --out', { file: runDir, field: '--out' });
}

/** The source run's target as this run's: recorded, never reached. */
function recordedTarget(source: RunInfo): ResolvedTarget {
  const t = source.target;
  return {
    baseUrl: t.base_url, apiKey: '', embedded: t.embedded, boardId: t.board_id, chatId: t.chat_id,
    ...(source.knowledge_base ? { knowledgeBase: source.knowledge_base } : {}),
    stop: async () => undefined,
  };
}

export async function regradeRun(asked: RegradeAsked, hooks: RegradeHooks): Promise<SessionResult> {
  const sourceDir = resolve(asked.sourceDir);
  const source = assertRunDir(sourceDir, '<run-dir>');
  if (asked.outDir !== undefined && resolve(asked.outDir) === sourceDir) {
    throw new InputError('a regrade writes a new run: give --out another directory than the source run', { field: '--out' });
  }
  const prepared = await prepareRun(regradeConfig(source, asked));
  const options = prepared.options;
  assertOutsideGrader(prepared.suite, prepared.grader);
  const target = recordedTarget(source);
  // Never reached: the only grader a regrade may ask is an outside one (assertOutsideGrader).
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: '', auth: 'header' });
  try {
    const grader = prepared.grader ? makeGrader(prepared.grader, { client, boardId: target.boardId, timeoutMs: options.request.timeoutMs, ...(options.grader.apiKey ? { apiKey: options.grader.apiKey } : {}) }) : undefined;
    if (grader) await preflightGrader(grader, hooks.signal);
    const check = judgePort(client, target, options, { ...(grader ? { grader } : {}), ...(prepared.knowledge ? { knowledge: prepared.knowledge } : {}) });
    const stored = await readStoredLines(sourceDir);
    const startedAt = isoNow();
    const named = options.outputs.outDir;
    let runDir = resolve(named ?? defaultRunDir(options.outputs.reportsRoot, prepared.suite.name, startedAt));
    if (named !== undefined) assertFreshRunDir(runDir);
    if (named === undefined) runDir = claimRunDir(runDir);
    else ensureRunDir(runDir);
    const lock = acquireRunLock(runDir, 'kbbench regrade');
    try {
      assertFreshRunDir(runDir);
      const begun = initialRunInfo(prepared, options, target, null, 'regrade');
      // The source's --kb-version is kept in the target section (regradeConfig): its answers' keys stay as they were.
      let info: RunInfo = { ...begun, started_at: startedAt };
      writeRunInfo(runDir, info);
      hooks.onStart?.({ runDir, sourceDir, total: prepared.plan.counts.requests, warnings: prepared.warnings });
      const t0 = performance.now();
      const regrade = await writeLines(runDir, prepared.plan.units(), stored, { source, sourceDir, check, signal: hooks.signal }).finally(() => stored.close());
      // The answers' own span (the source's duration), so rates describe how they were answered; the judging's time apart.
      info = { ...info, finished_at: isoNow(), duration_ms: source.duration_ms, status: 'completed', regrade: { ...regrade, judging_ms: Math.round(performance.now() - t0) } };
      writeRunInfo(runDir, info);
      const summary = await finishReports(runDir, info, { plan: prepared.plan });
      return { runDir, run: info, summary };
    } finally {
      lock.release();
    }
  } finally {
    await client.close();
  }
}

interface LineDeps {
  source: RunInfo;
  sourceDir: string;
  check: CheckFn;
  signal: AbortSignal;
}

/** Every planned request's line, in plan order (a thread's create line before its turns), and what became of each. */
async function writeLines(runDir: string, units: Iterable<PlanUnit>, stored: StoredLines, deps: LineDeps): Promise<RegradeInfo> {
  const info: RegradeInfo = {
    source_run_id: deps.source.run_id, source_dir: deps.sourceDir, judged_again: 0, kept_failed: 0,
    question_changed: 0, question_changed_items: [], never_asked: 0, never_asked_items: [], left_out: 0,
  };
  const file = new ResultsFile(resolve(runDir, RUN_FILES.results));
  const used = new Set<string>();
  let batch: Promise<Sample | null>[] = [];
  const drain = async (): Promise<void> => {
    for (const line of await Promise.all(batch)) if (line) file.append(line);
    batch = [];
  };
  try {
    for (const unit of units) {
      const requests: PlanRequest[] = unit.kind === 'case' ? [unit.request] : unit.turns;
      if (unit.kind === 'thread') {
        const created = stored.lineOf(createIdOf(unit.key));
        if (created) batch.push(Promise.resolve({ ...created, ...NOTHING_SPENT, reused_from: created.reused_from ?? deps.source.run_id }));
      }
      for (const request of requests) {
        batch.push(lineOf(request, stored, used, info, deps));
        if (batch.length >= CONCURRENCY) await drain();
      }
    }
    await drain();
    file.flush();
  } finally {
    file.close();
  }
  info.left_out = stored.answerCount() - used.size;
  return info;
}

function lineOf(request: PlanRequest, stored: StoredLines, used: Set<string>, info: RegradeInfo, deps: LineDeps): Promise<Sample | null> {
  const line = stored.lineOf(request.id);
  if (line) used.add(line.item_id);
  const step = regradeStep(request, line);
  const runId = deps.source.run_id;
  switch (step.kind) {
    case 'never-asked':
      info.never_asked += 1;
      if (info.never_asked_items.length < REGRADE_LISTED) info.never_asked_items.push(itemIdOf(request));
      return Promise.resolve(null);
    case 'changed':
      info.question_changed += 1;
      if (info.question_changed_items.length < REGRADE_LISTED) info.question_changed_items.push(step.stored.item_id);
      return Promise.resolve(notJudgedLine(request, step.stored, runId, step.why));
    case 'keep':
      info.kept_failed += 1;
      return Promise.resolve(keptLine(request, step.stored, runId));
    case 'judge':
      info.judged_again += 1;
      return judgeAgain(request, step.stored, runId, deps.check, deps.signal);
    default: {
      const never: never = step;
      return never;
    }
  }
}

const itemIdOf = (request: PlanRequest): string => formatItemId(request.id);
