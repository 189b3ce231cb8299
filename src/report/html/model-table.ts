// The model comparison table: sortable columns, the best value per column marked with ★ and words.
import type { ModelPair, ModelSummary, PairMetricName, Summary } from '../../domain/summary.js';
import { formatCount, formatCreditAmount, formatMs, formatRate, modelLabel } from '../format.js';
import { esc } from './escape.js';
import { seriesIndex } from './chart-frame.js';
import { renderForestPlot } from './forest-plot.js';
import { CLASS_TITLES, classEntryWords } from '../model-pairs-text.js';
import { DEGRADES_TITLE, degradingWords } from '../load-words.js';

interface Column {
  /** The header cell's words; under a group header (TTFC, latency, credits) they are short. */
  title: string;
  /** What a screen reader and the sort announcement call it in full. */
  name: string;
  group?: string;
  /** The number the column sorts and ranks by; null = no data. */
  value(m: ModelSummary): number | null;
  format(m: ModelSummary): string;
  /** Which end is best; undefined = no ranking (counts). */
  better?: 'low' | 'high';
  /** The paired test behind a ★ (summary.json's model_pairs); columns without one get no ★. */
  pair?: PairMetricName;
  extra?(m: ModelSummary): string;
}

function errorKinds(m: ModelSummary): string {
  const kinds = Object.entries(m.errors_by_kind).sort((a, b) => b[1] - a[1]);
  if (kinds.length === 0) return '';
  return `<span class="kinds">${kinds.map(([kind, n]) => `${esc(kind)} ×${n}`).join(' · ')}</span>`;
}

function timing(group: 'TTFC' | 'Latency', key: 'p50' | 'p95' | 'p99'): Column {
  const read = (m: ModelSummary) => (group === 'TTFC' ? m.ttfc_ms : m.latency_ms)?.[key] ?? null;
  const pair: PairMetricName | undefined = key !== 'p50' ? undefined : group === 'TTFC' ? 'ttfc_ms_p50' : 'latency_ms_p50';
  return { title: key, name: `${group} ${key} (ms)`, group: `${group}, ms`, value: read, format: (m) => formatMs(read(m)), better: 'low', ...(pair ? { pair } : {}) };
}

const COLUMNS: Column[] = [
  { title: 'Requests', name: 'Requests', value: (m) => m.requests, format: (m) => formatCount(m.requests) },
  {
    title: 'Errors', name: 'Errors', value: (m) => (m.requests > 0 ? m.errors / m.requests : null),
    format: (m) => formatCount(m.errors), better: 'low', extra: errorKinds,
  },
  { title: 'Pass rate', name: 'Pass rate', value: (m) => m.pass_rate, format: (m) => formatRate(m.pass_rate), better: 'high', pair: 'pass_rate', extra: passInterval },
  timing('TTFC', 'p50'),
  timing('TTFC', 'p95'),
  timing('TTFC', 'p99'),
  timing('Latency', 'p50'),
  timing('Latency', 'p95'),
  timing('Latency', 'p99'),
  {
    title: 'Chars/s', name: 'Characters per second', value: (m) => m.chars_per_s,
    format: (m) => formatCount(m.chars_per_s === null ? null : Math.round(m.chars_per_s)), better: 'high',
  },
  {
    title: 'per request', name: 'Credits per request', group: 'Credits', value: (m) => m.credits_per_request,
    format: (m) => formatCreditAmount(m.credits_per_request), better: 'low', pair: 'credits_per_answer',
  },
  { title: 'per passed', name: 'Credits per passed answer', group: 'Credits', value: (m) => m.credits_per_passed, format: (m) => formatCreditAmount(m.credits_per_passed), better: 'low' },
];

function passInterval(m: ModelSummary): string {
  if (!m.pass_rate_ci95) return '';
  const [lo, hi] = m.pass_rate_ci95;
  return `<span class="ci" title="95% interval over ${formatCount(m.questions ?? null)} questions">${(lo * 100).toFixed(0)}–${(hi * 100).toFixed(0)}%</span>`;
}

/**
 * The model a ★ goes to: the one that every pair it is in calls better on this column's metric
 * (significant after Holm's correction). Nothing else gets a star: the best-looking number of a
 * column is often one answer out of twenty-five, which is noise.
 */
function significantlyBest(column: Column, models: readonly string[], pairs: readonly ModelPair[]): string | null {
  if (!column.pair || models.length < 2) return null;
  for (const model of models) {
    const mine = pairs.filter((p) => p.a === model || p.b === model);
    if (mine.length !== models.length - 1) continue;
    const wins = mine.every((p) => {
      const verdict = p[column.pair!]?.verdict;
      return (p.a === model && verdict === 'a_better') || (p.b === model && verdict === 'b_better');
    });
    if (wins) return model;
  }
  return null;
}

/** Under a tested column with no ★: say so, rather than leave the reader to compare the numbers. */
function verdictRow(bests: readonly (string | null)[], pairs: readonly ModelPair[]): string {
  if (pairs.length === 0) return '';
  const cells = COLUMNS.map((c, i) => {
    if (!c.pair) return '<td></td>';
    // Plain cells under their columns (not the header's PASS badge, whose border and padding shifted them).
    return bests[i] !== null ? '<td class="pair-verdict">★&nbsp;significant</td>' : '<td class="pair-verdict no-diff">no detectable difference</td>';
  });
  return `<tfoot><tr><th scope="row" class="text">Paired test</th>${cells.join('')}</tr></tfoot>`;
}

function sortButton(title: string, name: string, index: number): string {
  const label = name !== title ? ` aria-label="${esc(name)}"` : '';
  return `<button type="button" class="sort" data-sort="${index}"${label}>${esc(title)}<span class="arrow" aria-hidden="true"></span></button>`;
}

/** Two header rows: grouped columns (TTFC, latency, credits) share a spanning header above their own. */
function headerRows(): string {
  const top: string[] = [`<th scope="col" rowspan="2" class="text">${sortButton('Model', 'Model', 0)}</th>`];
  const bottom: string[] = [];
  COLUMNS.forEach((column, i) => {
    const cell = (rowspan: string) => `<th scope="col"${rowspan}>${sortButton(column.title, column.name, i + 1)}</th>`;
    if (!column.group) {
      top.push(cell(' rowspan="2"'));
      return;
    }
    if (COLUMNS[i - 1]?.group !== column.group) {
      const span = COLUMNS.filter((c) => c.group === column.group).length;
      top.push(`<th scope="colgroup" colspan="${span}" class="group">${esc(column.group)}</th>`);
    }
    bottom.push(cell(''));
  });
  return `<tr>${top.join('')}</tr><tr>${bottom.join('')}</tr>`;
}

function bodyCell(column: Column, m: ModelSummary, model: string, best: string | null): string {
  const value = column.value(m);
  const isBest = best !== null && model === best;
  const mark = isBest ? '<span aria-hidden="true">★ </span><span class="sr-only">best: </span>' : '';
  const sortValue = value === null ? '' : String(value);
  return `<td data-sort-value="${esc(sortValue)}"${isBest ? ' class="best"' : ''}>${mark}${esc(column.format(m))}${column.extra?.(m) ?? ''}</td>`;
}

export function renderModelTable(summary: Summary): string {
  const entries = Object.entries(summary.models);
  if (entries.length === 0) return '<p>No requests were sent.</p>';
  const pairs = summary.model_pairs ?? [];
  const bests = COLUMNS.map((c) => significantlyBest(c, entries.map(([model]) => model), pairs));
  const rows = entries.map(([model, m], i) => {
    const swatch = `<svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="f${seriesIndex(i)}" width="12" height="12" rx="3"/></svg>`;
    const name = `<th scope="row" class="text" data-sort-value="${esc(modelLabel(model))}">${swatch}${esc(modelLabel(model))}</th>`;
    return `<tr data-model="${esc(model)}">${name}${COLUMNS.map((c, k) => bodyCell(c, m, model, bests[k]!)).join('')}</tr>`;
  });
  return `<div class="card table-scroll"><table id="model-table" data-sortable>
<caption class="sr-only">Models compared; column headers sort the table; ★ marks a model significantly better than every other on that column.</caption>
<thead>${headerRows()}</thead><tbody>${rows.join('\n')}</tbody>${verdictRow(bests, pairs)}</table>
<p class="note">★ marks a model that a paired comparison over the questions calls better than every other model (its interval clear of zero at 5% across the pairs, Bonferroni; see the differences below); a close number without one is within the noise. Pass rates carry their 95% interval over questions. Timings are over successful answers; credits per passed answer divide everything spent by the answers that passed.</p></div>
${renderForestPlot(pairs)}
${renderQuestionClasses(summary)}`;
}

/** The questions that failed some repeats, by class: flaky (answered repeats disagreed) apart from failed to answer (request errors). */
function renderQuestionClasses(summary: Summary): string {
  const lists = ([['flaky', summary.flaky], ['failed_to_answer', summary.failed_to_answer]] as const).filter(([, list]) => list !== undefined && list.total > 0);
  const degrades = summary.degrades_under_load;
  if (lists.length === 0 && !degrades?.total) return '';
  const body = lists.map(([kind, list]) => `<h3>${esc(CLASS_TITLES[kind])}: ${list!.total} case × model</h3>
<ul class="question-class" data-class="${kind}">${list!.shown.map((f) => `<li>${esc(classEntryWords(f))}</li>`).join('')}</ul>`);
  if (degrades && degrades.total > 0) {
    body.push(`<h3>${esc(DEGRADES_TITLE)}: ${degrades.total} case × model of ${degrades.tested} tested</h3>
<ul class="question-class" data-class="degrades_under_load">${degrades.shown.map((q) => `<li>${esc(degradingWords(q))}</li>`).join('')}</ul>
<p class="note">${esc(degrades.method)}; called at ${degrades.alpha}.</p>`);
  }
  return `<div class="card" id="question-classes">${body.join('\n')}</div>`;
}
