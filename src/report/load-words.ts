// Words for the load analysis (the knee, a stage's target), shared by the console and report.html: one way to say it.
import type { KneeSummary, StageSummary } from '../domain/load.js';
import type { DegradingQuestion, GoodputSummary, TotalsSummary } from '../domain/summary.js';
import { formatCount, formatTick, modelLabel } from './format.js';

export const KNEE_WORDS: Record<KneeSummary['by'], string> = {
  latency: 'p95 latency doubled against the first windows',
  errors: 'errors passed 1%',
  pass_rate: 'the pass rate fell 5 points',
};

export function kneeWords(knee: KneeSummary): string {
  const workers = knee.workers !== undefined ? ` (${formatCount(knee.workers)} workers)` : '';
  return `${formatTick(knee.rate_per_s)} starts/s${workers}: ${KNEE_WORDS[knee.by]}`;
}

/** True when the stages' targets are workers (`--concurrency-stages`), not starts per second. */
export const byWorkers = (stages: readonly StageSummary[]): boolean => stages.some((s) => s.target_unit === 'workers');

/** A stage's target (starts/s, or workers), held or ramping. */
export function stageTarget(s: StageSummary, arrow = ' → '): string {
  return s.from_rate === s.to_rate ? formatTick(s.to_rate) : `${formatTick(s.from_rate)}${arrow}${formatTick(s.to_rate)}`;
}

/** A rate per second, or a dash. */
export const perSecondWords = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : formatTick(x));

/**
 * `goodput 3.2/s of 5.1 answers/s (answers that passed their checks with ttfc_ms<1500 each)`, and the
 * knee by goodput: said the same on the console and in report.html. Null without goodput figures.
 */
export function goodputWords(totals: TotalsSummary, goodput: GoodputSummary | undefined, judgeShare?: string): string[] {
  if (!goodput || totals.goodput === undefined || totals.goodput === null || !totals.duration_ms) return [];
  const answers = totals.ok / (totals.duration_ms / 1000);
  const share = judgeShare ? `; ${judgeShare}` : '';
  const lines = [`goodput ${perSecondWords(totals.goodput)}/s of ${perSecondWords(Math.round(answers * 1000) / 1000)} answers/s (${goodput.definition}${share})`];
  const knee = goodput.knee;
  if (knee) {
    const at = knee.achieved_rate === null ? `target ${formatTick(knee.target_rate)}` : `${formatTick(knee.achieved_rate)} starts/s (target ${formatTick(knee.target_rate)})`;
    lines.push(`knee by goodput ▲ at ${at}: ${formatTick(knee.goodput)} good answers/s, the most of any stage${knee.is_last ? ' — the highest load offered, so the knee lies at or above it' : ''}`);
  }
  return lines;
}

export const DEGRADES_TITLE = 'degrades under load (pass rate fell as the offered load rose; not flaky)';

/** `refund-window  gpt-4o-mini  5/5 at 2/s → 2/15 at 8/s (p = 0.003, Holm)`. */
export function degradingWords(q: DegradingQuestion): string {
  const levels = q.levels.map((l) => `${l.passed}/${l.judged} at ${formatTick(l.target_rate)}/s`).join(' → ');
  return `${q.label}  ${modelLabel(q.model)}  ${levels} (p = ${q.p_adjusted.toPrecision(2)}, Holm)`;
}
