// Questions that degrade under load: per question × model, its answered repeats in each stage (or
// sweep rate), a trend test of its pass rate against the offered load, Holm-adjusted over the questions.
import type { StageWindow } from '../domain/load.js';
import type { Sample } from '../domain/sample.js';
import type { DegradesList, DegradingQuestion } from '../domain/summary.js';
import { decreasingTrendP, holmAdjust } from '../stats/index.js';
import { caseKeyOf, caseLabelOf, isCreateLine } from './case-entry.js';
import { isRequestError } from './request-stats.js';
import { rateIndexOf } from './stage-window.js';

export const DEGRADES_ALPHA = 0.05;
/** Question × model cells followed; past it new ones are left out (a suite of 20,000 questions already pins any trend). */
export const TREND_CELL_LIMIT = 20_000;
const SHOWN = 50;
export const DEGRADES_METHOD = 'Cochran–Armitage trend test of each question × model\'s pass count across the offered load (one-sided, exact up to 200 answers), Holm-adjusted over the questions tested';

interface Cell {
  key: string;
  label: string;
  model: string;
  /** Per stage: passed and judged answers. */
  passed: number[];
  judged: number[];
}

export interface LoadTrend {
  add(sample: Sample): void;
  finish(): { list: DegradesList; keys: ReadonlySet<string> } | null;
}

/** The key of a case × model in `keys` (model names are user text: joined by a character no key has). */
export const trendKey = (key: string, model: string): string => `${key}\u0000${model}`;

/**
 * `stages`: the run's stages (or sweep rates) in time order. The offered load of each is its
 * mean target; the test ranks the distinct loads (equal loads are one level), so a ramp that comes
 * back down is judged by its load, not its order. Null (no test) with fewer than two distinct loads.
 */
export function createLoadTrend(stages: readonly StageWindow[]): LoadTrend | null {
  const loads = stages.map((s) => (s.from_rate + s.to_rate) / 2);
  const distinct = [...new Set(loads)].sort((a, b) => a - b);
  if (distinct.length < 2) return null;
  const levelOf = loads.map((l) => distinct.indexOf(l));
  const cells = new Map<string, Cell>();
  return {
    add(sample) {
      // Flaky's rule: only answered repeats tell whether answers got worse; errors are failed_to_answer's.
      if (sample.warmup === true || sample.outcome === 'skipped' || isCreateLine(sample) || isRequestError(sample) || sample.pass === null || sample.not_judged !== undefined) return;
      const stage = rateIndexOf(stages, sample);
      if (stage < 0) return;
      const key = caseKeyOf(sample);
      const id = trendKey(key, sample.model);
      let cell = cells.get(id);
      if (!cell) {
        if (cells.size >= TREND_CELL_LIMIT) return;
        cell = { key, label: caseLabelOf(sample), model: sample.model, passed: distinct.map(() => 0), judged: distinct.map(() => 0) };
        cells.set(id, cell);
      }
      const level = levelOf[stage]!;
      cell.judged[level]! += 1;
      if (sample.pass) cell.passed[level]! += 1;
    },
    finish() {
      if (cells.size === 0) return null;
      const all = [...cells.values()];
      const ps = all.map((c) => decreasingTrendP(c.judged.map((judged, score) => ({ score, judged, passed: c.passed[score]! }))));
      const adjusted = holmAdjust(ps);
      const called: DegradingQuestion[] = [];
      const keys = new Set<string>();
      all.forEach((c, i) => {
        const pAdj = adjusted[i];
        if (pAdj === null || pAdj === undefined || pAdj >= DEGRADES_ALPHA) return;
        keys.add(trendKey(c.key, c.model));
        called.push({
          key: c.key, label: c.label, model: c.model, p_value: round(ps[i]!), p_adjusted: round(pAdj),
          levels: c.judged.flatMap((judged, level) => (judged > 0 ? [{ level, target_rate: distinct[level]!, passed: c.passed[level]!, judged }] : [])),
        });
      });
      called.sort((a, b) => a.p_adjusted - b.p_adjusted);
      return {
        keys,
        list: {
          total: called.length, shown: called.slice(0, SHOWN), method: DEGRADES_METHOD, alpha: DEGRADES_ALPHA,
          tested: ps.filter((p) => p !== null).length, pass_rate_by_level: questionAveraged(all, distinct),
        },
      };
    },
  };
}

/** Miller (2024): each question's pass rate in a level (its repeats averaged), then the mean over questions, per model. */
function questionAveraged(cells: readonly Cell[], loads: readonly number[]): DegradesList['pass_rate_by_level'] {
  const sums = new Map<string, { model: string; level: number; questions: number; sum: number }>();
  for (const c of cells) {
    c.judged.forEach((judged, level) => {
      if (judged === 0) return;
      const id = trendKey(String(level), c.model);
      const s = sums.get(id) ?? { model: c.model, level, questions: 0, sum: 0 };
      s.questions += 1;
      s.sum += c.passed[level]! / judged;
      sums.set(id, s);
    });
  }
  return [...sums.values()]
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.level - b.level))
    .map((s) => ({ model: s.model, level: s.level, target_rate: loads[s.level]!, questions: s.questions, pass_rate: round(s.sum / s.questions) }));
}

const round = (x: number): number => Number(x.toPrecision(4));
