// Builds history.json from run directories: series per suite × model (and tag) × metric in time
// order, change points by e-divisive means, and each question's flips across runs.
import { relative, sep } from 'node:path';
import { InputError } from '../domain/errors.js';
import { DEFAULT_E_DIVISIVE, eDivisive, type EDivisiveOptions, valuePermuter } from './e-divisive.js';
import { findRunDirs } from './find-runs.js';
import { flipsOf } from './flips.js';
import { questionPermuter, ratesOf, type QuestionMatrix } from './question-permuter.js';
import { createInterner, readRun, RunReadError } from './read-run.js';
import {
  HISTORY_METRICS, type HistoryChangePoint, type HistoryJson, type HistoryMetric, type HistoryPoint, type HistoryRun, type HistorySeries,
  type RunGroup, type RunRecord,
} from './types.js';
import { RUN_FILES } from '../store/run-dir.js';

export interface HistoryOptions {
  /** Only runs of this suite (run.json `suite.name`). */
  suite?: string;
  /** Where history.html goes: links to each run's report.html are relative to it. */
  outDir: string;
  toolVersion: string;
  changePoints?: Partial<EDivisiveOptions>;
}

/** Run directories read at once: enough to overlap file reads, few enough to bound memory. */
const READ_CONCURRENCY = 8;

/**
 * Past this many question × run cells, a pass rate's permutation test shuffles run values instead of
 * questions: with that many runs it has the power anyway, and the cost stays linear.
 */
const QUESTION_PERMUTATION_CELLS = 200_000;

async function readAll(dirs: readonly string[], intern: (key: string) => number, suite: string | undefined) {
  const runs: RunRecord[] = [];
  const skipped: Array<{ dir: string; reason: string }> = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < dirs.length) {
      const dir = dirs[next++]!;
      try {
        const run = await readRun(dir, intern);
        if (suite === undefined || run.suite === suite) runs.push(run);
      } catch (error) {
        if (!(error instanceof RunReadError)) throw error;
        skipped.push({ dir, reason: error.message });
      }
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  runs.sort((a, b) => a.startedMs - b.startedMs || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  skipped.sort((a, b) => (a.dir < b.dir ? -1 : 1));
  return { runs, skipped };
}

function reportLink(run: RunRecord, outDir: string): string | undefined {
  if (!run.hasReport) return undefined;
  return relative(outDir, `${run.dir}${sep}${RUN_FILES.html}`).split(sep).map(encodeURIComponent).join('/');
}

function pointOf(run: RunRecord, group: RunGroup, metric: HistoryMetric, outDir: string): HistoryPoint {
  const report = reportLink(run, outDir);
  return {
    run_id: run.runId,
    started_at: run.startedAt,
    ...(run.label !== undefined ? { label: run.label } : {}),
    ...(run.commit !== undefined ? { commit: run.commit } : {}),
    value: group.values[metric] ?? null,
    ...(metric === 'pass_rate' && group.ci95 ? { ci95: group.ci95 } : {}),
    ...(report !== undefined ? { report } : {}),
  };
}

/** Questions × runs of one model, when every run kept its per-question figures. */
function questionMatrix(runs: readonly RunRecord[], model: string): QuestionMatrix | null {
  const rows = new Map<number, number>();
  for (const run of runs) {
    const outcomes = run.questions.get(model);
    if (!outcomes) return null;
    for (const q of outcomes.question) if (!rows.has(q)) rows.set(q, rows.size);
  }
  const questions = rows.size;
  if (questions === 0 || questions * runs.length > QUESTION_PERMUTATION_CELLS) return null;
  const passed = new Float64Array(questions * runs.length);
  const requests = new Float64Array(questions * runs.length);
  runs.forEach((run, r) => {
    const outcomes = run.questions.get(model)!;
    for (let i = 0; i < outcomes.question.length; i++) {
      const row = rows.get(outcomes.question[i]!)!;
      passed[row * runs.length + r] = outcomes.passed[i]!;
      requests[row * runs.length + r] = outcomes.requests[i]!;
    }
  });
  return { questions, runs: runs.length, passed, requests };
}

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

function changePointsOf(series: HistorySeries, runs: readonly RunRecord[], options: EDivisiveOptions): HistoryChangePoint[] {
  const kept = series.points.map((p, i) => ({ p, run: runs[i]! })).filter(({ p }) => p.value !== null);
  if (kept.length < 2 * options.minSegment) return [];
  let values = Float64Array.from(kept, ({ p }) => p.value!);
  let permuter = valuePermuter(values);
  if (series.metric === 'pass_rate' && series.tag === undefined) {
    const matrix = questionMatrix(kept.map(({ run }) => run), series.model);
    if (matrix) {
      values = ratesOf(matrix).map((v, i) => (Number.isNaN(v) ? values[i]! : v));
      permuter = questionPermuter(matrix);
    }
  }
  const found = eDivisive(values, options, permuter);
  const bounds = [0, ...found.map((c) => c.index), kept.length];
  return found.map((c, i) => {
    const after = kept[c.index]!.p;
    const before = kept[c.index - 1]!.p;
    const segment = (from: number, to: number) => mean(kept.slice(from, to).map(({ p }) => p.value!));
    return {
      suite: series.suite,
      model: series.model,
      ...(series.tag !== undefined ? { tag: series.tag } : {}),
      metric: series.metric,
      run_id: after.run_id,
      started_at: after.started_at,
      ...(after.label !== undefined ? { label: after.label } : {}),
      ...(after.commit !== undefined ? { commit: after.commit } : {}),
      previous_run_id: before.run_id,
      ...(before.label !== undefined ? { previous_label: before.label } : {}),
      ...(before.commit !== undefined ? { previous_commit: before.commit } : {}),
      before: segment(bounds[i]!, c.index),
      after: segment(c.index, bounds[i + 2]!),
      p_value: c.pValue,
    };
  });
}

function runEntry(run: RunRecord, outDir: string): HistoryRun {
  const report = reportLink(run, outDir);
  return {
    run_id: run.runId,
    suite: run.suite,
    started_at: run.startedAt,
    ...(run.label !== undefined ? { label: run.label } : {}),
    ...(run.commit !== undefined ? { commit: run.commit } : {}),
    status: run.status,
    verdict: run.verdict,
    ...(run.knowledgeBase ? { knowledge_base: run.knowledgeBase } : {}),
    ...(report !== undefined ? { report } : {}),
  };
}

function seriesOfSuite(suite: string, runs: readonly RunRecord[], outDir: string, options: EDivisiveOptions) {
  const series: HistorySeries[] = [];
  const changePoints: HistoryChangePoint[] = [];
  const add = (model: string, tag: string | undefined, groupOf: (run: RunRecord) => RunGroup | undefined): void => {
    const present = runs.filter((run) => groupOf(run) !== undefined);
    for (const metric of HISTORY_METRICS) {
      const points = present.map((run) => pointOf(run, groupOf(run)!, metric, outDir));
      if (points.every((p) => p.value === null)) continue;
      const s: HistorySeries = { suite, model, ...(tag !== undefined ? { tag } : {}), metric, points };
      series.push(s);
      changePoints.push(...changePointsOf(s, present, options));
    }
  };
  const models = [...new Set(runs.flatMap((run) => [...run.models.keys()]))].sort();
  for (const model of models) add(model, undefined, (run) => run.models.get(model));
  const tags = [...new Set(runs.flatMap((run) => [...run.tags.keys()]))].sort();
  for (const tag of tags) add('*', tag, (run) => run.tags.get(tag));
  return { series, changePoints };
}

/** Runs in order: each answer's label against the last run that labelled it. */
function labelChangesOf(suite: string, runs: readonly RunRecord[]): NonNullable<HistoryJson['label_changes']> {
  const last = new Map<string, boolean>();
  const changes: NonNullable<HistoryJson['label_changes']> = [];
  const word = (pass: boolean): 'pass' | 'fail' => (pass ? 'pass' : 'fail');
  for (const run of runs) {
    for (const [itemId, pass] of run.labels) {
      const before = last.get(itemId);
      if (before !== undefined && before !== pass) changes.push({ suite, item_id: itemId, run_id: run.runId, from: word(before), to: word(pass) });
      last.set(itemId, pass);
    }
  }
  return changes;
}

export async function buildHistory(roots: readonly string[], options: HistoryOptions): Promise<HistoryJson> {
  const method: EDivisiveOptions = { ...DEFAULT_E_DIVISIVE, ...options.changePoints };
  const interner = createInterner();
  const dirs = await findRunDirs(roots);
  const { runs, skipped } = await readAll(dirs, interner.intern, options.suite);
  if (runs.length === 0) {
    const what = options.suite === undefined ? 'no run directory' : `no run of suite "${options.suite}"`;
    throw new InputError(`${what} with a run.json and a summary.json under ${roots.join(', ')}`, { field: 'DIR' });
  }
  const json: HistoryJson = {
    generated_by: { name: 'kbbench', version: options.toolVersion },
    method: {
      change_points: 'e-divisive means (Matteson & James 2014), permutation test per split',
      significance: method.significance, permutations: method.permutations, min_segment: method.minSegment, seed: method.seed,
    },
    runs: runs.map((run) => runEntry(run, options.outDir)),
    series: [],
    change_points: [],
    flips: [],
    flaky: [],
    skipped,
  };
  const suites = [...new Set(runs.map((run) => run.suite))].sort();
  for (const suite of suites) {
    const ofSuite = runs.filter((run) => run.suite === suite);
    const { series, changePoints } = seriesOfSuite(suite, ofSuite, options.outDir, method);
    json.series.push(...series);
    json.change_points.push(...changePoints);
    json.flips.push(...flipsOf(suite, ofSuite, interner.keys));
  }
  const relabelled = suites.flatMap((suite) => labelChangesOf(suite, runs.filter((run) => run.suite === suite)));
  if (relabelled.length > 0) json.label_changes = relabelled;
  json.flaky = json.flips.filter((f) => f.kind === 'flaky').map((f) => ({ suite: f.suite, model: f.model, item: f.item, flips: f.runs.length }));
  return json;
}
