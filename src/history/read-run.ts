// Reads one run directory for history: run.json and summary.json only (cases.csv when summary.json
// lists only the worst cases), never results.ndjson, so a year of runs reads in seconds.
import { answerLabels, parseRunLabels } from '../graders/run-labels.js';
import { labelsPath, readLabelsText } from '../store/labels-file.js';
import { MAX_SUMMARY_BYTES, openRunFile, readRunFile } from '../store/run-file.js';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { RUN_FILES } from '../store/run-dir.js';
import { KbError } from '../domain/errors.js';
import { wilsonInterval } from '../stats/wilson.js';
import type { MetricValues, QuestionOutcomes, RunGroup, RunRecord } from './types.js';

/** Gives each question key one number for the whole history, so a run keeps numbers, not strings. */
export type Interner = (key: string) => number;

export function createInterner(): { intern: Interner; keys: string[] } {
  const ids = new Map<string, number>();
  const keys: string[] = [];
  return {
    keys,
    intern(key) {
      let id = ids.get(key);
      if (id === undefined) {
        id = keys.length;
        ids.set(key, id);
        keys.push(key);
      }
      return id;
    },
  };
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const own = (o: Json, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

function percentile(stats: unknown, p: 'p50' | 'p95'): number | null {
  return isObject(stats) ? num(own(stats, p)) : null;
}

function groupValues(stats: Json): MetricValues {
  const ok = num(own(stats, 'ok'));
  const credits = num(own(stats, 'credits_used'));
  return {
    pass_rate: num(own(stats, 'pass_rate')),
    ttfc_ms_p50: percentile(own(stats, 'ttfc_ms'), 'p50'),
    ttfc_ms_p95: percentile(own(stats, 'ttfc_ms'), 'p95'),
    latency_ms_p50: percentile(own(stats, 'latency_ms'), 'p50'),
    latency_ms_p95: percentile(own(stats, 'latency_ms'), 'p95'),
    credits_per_answer: ok !== null && ok > 0 && credits !== null ? credits / ok : null,
    errors: num(own(stats, 'errors')),
  };
}

function ci95Of(value: unknown): [number, number] | undefined {
  if (Array.isArray(value) && value.length === 2 && num(value[0]) !== null && num(value[1]) !== null) return [value[0] as number, value[1] as number];
  return undefined;
}

/** Wilson over questions (repeats averaged per question first), else over requests. */
function wilsonOf(stats: Json, outcomes: QuestionOutcomes | undefined): [number, number] | undefined {
  if (outcomes && outcomes.question.length > 0) {
    let successes = 0;
    let n = 0;
    for (let i = 0; i < outcomes.question.length; i++) {
      if (outcomes.requests[i]! > 0) {
        successes += outcomes.passed[i]! / outcomes.requests[i]!;
        n += 1;
      }
    }
    return n > 0 ? wilsonInterval(successes, n) : undefined;
  }
  const passed = num(own(stats, 'passed'));
  const requests = num(own(stats, 'requests'));
  return passed !== null && requests !== null && requests > 0 ? wilsonInterval(passed, requests) : undefined;
}

interface Cell {
  question: number;
  passed: number;
  /** Judged requests. */
  requests: number;
  /** Passed requests the question needs to pass (`repeat_pass: k/n`; else every one). */
  need: number;
  flaky: boolean;
}

function isFlaky(stability: unknown, model: string): boolean {
  if (stability === 'flaky') return true;
  return isObject(stability) && own(stability, model) === 'flaky';
}

function cellsFromSummary(cases: unknown[], intern: Interner): Map<string, Cell[]> {
  const byModel = new Map<string, Cell[]>();
  for (const entry of cases) {
    if (!isObject(entry) || typeof entry.key !== 'string' || !isObject(entry.models)) continue;
    const question = intern(entry.key);
    for (const [model, cell] of Object.entries(entry.models)) {
      if (!isObject(cell)) continue;
      // Requests no check judged are outside the pass rate (summary.json `not_judged`).
      const requests = (num(own(cell, 'requests')) ?? 0) - (num(own(cell, 'not_judged')) ?? 0);
      const passed = num(own(cell, 'passed')) ?? 0;
      const need = num(own(cell, 'repeat_pass')) ?? requests;
      const list = byModel.get(model) ?? byModel.set(model, []).get(model)!;
      // Stability is the cell's (repeats of one model); a case-level one is read too.
      const flaky = own(cell, 'stability') === 'flaky' || isFlaky(own(entry, 'stability'), model);
      list.push({ question, passed, requests, need, flaky });
    }
  }
  return byModel;
}

/** cases.csv, streamed: every case × model row of a run whose summary.json kept only the worst. */
async function cellsFromCsv(path: string, intern: Interner): Promise<Map<string, Cell[]>> {
  const byModel = new Map<string, Cell[]>();
  const rows = createReadStream(path, { fd: openRunFile(path) }).pipe(parse({ columns: true, bom: true, relax_column_count: true }));
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    if (!row.key || row.model === undefined) continue;
    // cases.csv guards cells against spreadsheet formulas with a leading quote; a model name is data.
    const model = row.model.startsWith("'") ? row.model.slice(1) : row.model;
    const list = byModel.get(model) ?? byModel.set(model, []).get(model)!;
    const requests = Number(row.requests) || 0;
    list.push({ question: intern(row.key), passed: Number(row.passed) || 0, requests, need: requests, flaky: false });
  }
  return byModel;
}

function packed(cells: Cell[]): QuestionOutcomes {
  const flaky = cells.filter((c) => c.flaky).map((c) => c.question);
  return {
    question: Int32Array.from(cells, (c) => c.question),
    passed: Float32Array.from(cells, (c) => c.passed),
    requests: Float32Array.from(cells, (c) => c.requests),
    need: Float32Array.from(cells, (c) => c.need),
    ...(flaky.length > 0 ? { flakyWithin: Int32Array.from(flaky) } : {}),
  };
}

export class RunReadError extends Error {
  readonly code = 'HISTORY_RUN_UNREADABLE';
}

/** The reader's own words (a FIFO, a file past its limit), else the system's code (ENOENT, EACCES). */
function reasonOf(error: unknown): string {
  if (error instanceof KbError) return error.message;
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

function readJson(path: string): Json {
  let text: string;
  try {
    // Sync: two small files a run, read one run after another; the thread pool's hand-offs cost more than they save.
    text = readRunFile(path, MAX_SUMMARY_BYTES);
  } catch (error) {
    throw new RunReadError(`cannot read ${path}: ${reasonOf(error)}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value)) throw new Error('not an object');
    return value;
  } catch (error) {
    throw new RunReadError(`${path} is not a JSON object: ${(error as Error).message}`);
  }
}

/** One run directory's record; a RunReadError when its run.json or summary.json is missing or unreadable. */
export async function readRun(dir: string, intern: Interner): Promise<RunRecord> {
  const run = readJson(join(dir, RUN_FILES.run));
  const summaryPath = join(dir, RUN_FILES.summary);
  if (!existsSync(summaryPath)) throw new RunReadError(`${dir} has no summary.json (a run that never finished its reports)`);
  const summary = readJson(summaryPath);
  const runId = str(run.run_id) ?? str(summary.run_id);
  const startedAt = str(run.started_at);
  const startedMs = startedAt === undefined ? Number.NaN : Date.parse(startedAt);
  if (runId === undefined || startedAt === undefined || Number.isNaN(startedMs)) throw new RunReadError(`${join(dir, RUN_FILES.run)} has no run_id or started_at`);
  const suite = isObject(run.suite) ? (str(run.suite.name) ?? '') : '';
  let cells = new Map<string, Cell[]>();
  if (summary.cases_truncated !== null && summary.cases_truncated !== undefined && existsSync(join(dir, RUN_FILES.casesCsv))) {
    const csvPath = join(dir, RUN_FILES.casesCsv);
    cells = await cellsFromCsv(csvPath, intern).catch((error: unknown) => {
      throw new RunReadError(`cannot read ${csvPath}: ${reasonOf(error)}`);
    });
  } else if (Array.isArray(summary.cases)) {
    cells = cellsFromSummary(summary.cases, intern);
  }
  const questions = new Map<string, QuestionOutcomes>();
  for (const [model, list] of cells) questions.set(model, packed(list));
  const models = new Map<string, RunGroup>();
  for (const [model, stats] of Object.entries(isObject(summary.models) ? summary.models : {})) {
    if (!isObject(stats)) continue;
    const ci95 = ci95Of(own(stats, 'pass_rate_ci95')) ?? wilsonOf(stats, questions.get(model));
    models.set(model, { values: groupValues(stats), ...(ci95 ? { ci95 } : {}) });
  }
  const tags = new Map<string, RunGroup>();
  for (const [tag, stats] of Object.entries(isObject(summary.tags) ? summary.tags : {})) {
    if (!isObject(stats)) continue;
    const ci95 = ci95Of(own(stats, 'pass_rate_ci95')) ?? wilsonOf(stats, undefined);
    tags.set(tag, { values: groupValues(stats), ...(ci95 ? { ci95 } : {}) });
  }
  const kb = isObject(run.knowledge_base) ? run.knowledge_base : null;
  const label = str(run.label);
  const commit = str(run.commit);
  const version = kb ? str(kb.version) : undefined;
  const sha256 = kb ? str(kb.sha256) : undefined;
  return {
    dir,
    runId,
    suite,
    startedAt,
    startedMs,
    ...(label !== undefined ? { label } : {}),
    ...(commit !== undefined ? { commit } : {}),
    status: str(run.status) ?? str(summary.status) ?? 'unknown',
    verdict: str(summary.verdict) ?? 'unknown',
    ...(kb ? { knowledgeBase: { ...(version !== undefined ? { version } : {}), ...(sha256 !== undefined ? { sha256 } : {}) } } : {}),
    hasReport: existsSync(join(dir, RUN_FILES.html)),
    models,
    tags,
    questions,
    labels: labelsOf(dir),
  };
}

/** A run's people's labels; a labels.csv that cannot be read is left out (history reads what it can, as with summaries). */
function labelsOf(dir: string): Map<string, boolean> {
  try {
    const text = readLabelsText(dir);
    if (text === null) return new Map();
    return new Map([...answerLabels(parseRunLabels(text, labelsPath(dir)))].map(([id, l]) => [id, l.human]));
  } catch {
    return new Map();
  }
}
