// Per-question statistics per model (pass rate intervals, pass^k, flaky questions), fed one case entry at a time.
import type { FlakyList, ModelPair, ModelQuestionStats } from '../domain/summary.js';
import { classOf, passHatK, passRateInterval, clusterIndex } from '../stats/index.js';
import { isCreateLine, type CaseEntry, type CellTotals } from './case-entry.js';

export type { QuestionRow } from './model-pairs.js';
import { partitionOf } from './case-spill.js';
import { trendKey } from './load-trend.js';
import { buildModelPairs, type QuestionRow } from './model-pairs.js';

/**
 * Up to this many questions the statistics use every one. Past it they use a uniform random sample
 * of whole clusters (threads stay together): the ones whose key hashes lowest, so memory stays
 * bounded whatever the run's size and the same run always gives the same sample. 20,000 questions
 * already pin a pass rate to ±0.7 points; more would only cost time in the resampling tests.
 */
export const QUESTION_SAMPLE_LIMIT = 20_000;
/** Flaky case × model cells listed in summary.json (all are counted). */
export const FLAKY_SHOWN = 50;

export interface QuestionStatsResult {
  models: Map<string, ModelQuestionStats>;
  pairs: ModelPair[];
  flaky: FlakyList;
  failedToAnswer: FlakyList;
}

export interface QuestionStats {
  add(entry: CaseEntry): void;
  finish(modelOrder: readonly string[]): QuestionStatsResult;
}

export const judgedOf = (cell: CellTotals): number => cell.requests - cell.notJudged;

/** `degrading`: case × model cells (load-trend.ts `trendKey`) already classed degrades_under_load: neither flaky nor failed to answer. */
export function createQuestionStats(limit = QUESTION_SAMPLE_LIMIT, degrading: ReadonlySet<string> = new Set()): QuestionStats {
  let rows: QuestionRow[] = [];
  // Clusters hashing above this were cut from the sample: rows of theirs are refused at once.
  let ceiling = Infinity;
  let sampled = false;
  const questions = new Map<string, number>();
  const flaky: FlakyList = { total: 0, shown: [] };
  const failedToAnswer: FlakyList = { total: 0, shown: [] };

  // Cut back to `limit` whenever a quarter more have come: each row holds its cells (~450 bytes), so at
  // twice the limit the rows were ~18 MB, the report phase's peak (bench/traffic-memory.mjs); the sample
  // is the same whenever the cuts come (the clusters hashing lowest), a cut costs one sort.
  const trim = (): void => {
    rows.sort((x, y) => x.hash - y.hash);
    ceiling = rows[limit - 1]!.hash;
    rows = rows.filter((r) => r.hash <= ceiling);
    sampled = true;
  };

  const add = (entry: CaseEntry): void => {
    if (isCreateLine(entry)) return;
    for (const [model, cell] of entry.cells) {
      if (cell.requests > 0) questions.set(model, (questions.get(model) ?? 0) + 1);
      // Flaky: answered repeats disagreed. Failed to answer: its failures are request errors (429, timeout, cut).
      const kind = degrading.has(trendKey(entry.key, model)) ? 'degrades_under_load' : classOf(cell);
      const list = kind === 'flaky' ? flaky : kind === 'failed_to_answer' ? failedToAnswer : null;
      if (list !== null) {
        list.total++;
        if (list.shown.length < FLAKY_SHOWN) {
          list.shown.push({ key: entry.key, label: entry.label, model, passed: cell.passed, judged: judgedOf(cell), ...(cell.errors > 0 ? { errors: cell.errors } : {}) });
        }
      }
    }
    const cluster = entry.thread_id !== null ? `thread:${entry.thread_id}` : entry.key;
    const hash = partitionOf(cluster, 0x7fffffff);
    if (hash > ceiling) {
      sampled = true;
      return;
    }
    rows.push({ cluster, key: entry.key, hash, cells: entry.cells });
    if (rows.length > limit + limit / 4) trim();
  };

  const finish = (modelOrder: readonly string[]): QuestionStatsResult => {
    if (rows.length > limit) trim();
    // In memory or spilled, the rows come in different orders: one order makes the resampling identical.
    rows.sort((x, y) => x.hash - y.hash || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    const models = new Map<string, ModelQuestionStats>();
    for (const model of modelOrder) {
      const stats = modelStats(rows, model, questions.get(model) ?? 0);
      if (stats) models.set(model, stats);
    }
    const pairs = buildModelPairs(rows, modelOrder.filter((m) => models.has(m)), sampled);
    return { models, pairs, flaky, failedToAnswer };
  };

  return { add, finish };
}

const round = (x: number, digits = 4): number => Number(x.toFixed(digits));

function modelStats(rows: readonly QuestionRow[], model: string, questions: number): ModelQuestionStats | null {
  const values: number[] = [];
  const clusters: string[] = [];
  let answers = 0;
  let minJudged = Infinity;
  for (const row of rows) {
    const cell = row.cells.get(model);
    if (!cell || judgedOf(cell) === 0) continue;
    values.push(cell.passed / judgedOf(cell));
    clusters.push(row.cluster);
    answers += judgedOf(cell);
    minJudged = Math.min(minJudged, judgedOf(cell));
  }
  if (values.length === 0) return null;
  const [lo, hi] = passRateInterval({ values, cluster: clusterIndex(clusters) }, answers);
  const passAt1 = values.reduce((a, v) => a + v, 0) / values.length;
  let passHat: ModelQuestionStats['pass_hat_k'] = null;
  if (minJudged >= 2) {
    let sum = 0;
    for (const row of rows) {
      const cell = row.cells.get(model);
      if (cell && judgedOf(cell) > 0) sum += passHatK(cell.passed, judgedOf(cell), minJudged);
    }
    passHat = { k: minJudged, value: round(sum / values.length) };
  }
  return {
    questions, answers, pass_at_1: round(passAt1), pass_rate_ci95: [round(lo), round(hi)], pass_hat_k: passHat,
    ...(values.length < questions ? { questions_sampled: values.length } : {}),
  };
}
