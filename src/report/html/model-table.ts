// The model comparison table: sortable columns, the best value per column marked with ★ and words.
import type { ModelSummary, Summary } from '../../domain/summary.js';
import { formatCount, formatCreditAmount, formatMs, formatRate, modelLabel } from '../format.js';
import { esc } from './escape.js';
import { seriesIndex } from './chart-frame.js';

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
  extra?(m: ModelSummary): string;
}

function errorKinds(m: ModelSummary): string {
  const kinds = Object.entries(m.errors_by_kind).sort((a, b) => b[1] - a[1]);
  if (kinds.length === 0) return '';
  return `<span class="kinds">${kinds.map(([kind, n]) => `${esc(kind)} ×${n}`).join(' · ')}</span>`;
}

function timing(group: 'TTFC' | 'Latency', key: 'p50' | 'p95' | 'p99'): Column {
  const read = (m: ModelSummary) => (group === 'TTFC' ? m.ttfc_ms : m.latency_ms)?.[key] ?? null;
  return { title: key, name: `${group} ${key} (ms)`, group: `${group}, ms`, value: read, format: (m) => formatMs(read(m)), better: 'low' };
}

const COLUMNS: Column[] = [
  { title: 'Requests', name: 'Requests', value: (m) => m.requests, format: (m) => formatCount(m.requests) },
  {
    title: 'Errors', name: 'Errors', value: (m) => (m.requests > 0 ? m.errors / m.requests : null),
    format: (m) => formatCount(m.errors), better: 'low', extra: errorKinds,
  },
  { title: 'Pass rate', name: 'Pass rate', value: (m) => m.pass_rate, format: (m) => formatRate(m.pass_rate), better: 'high' },
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
  { title: 'per request', name: 'Credits per request', group: 'Credits', value: (m) => m.credits_per_request, format: (m) => formatCreditAmount(m.credits_per_request), better: 'low' },
  { title: 'per passed', name: 'Credits per passed answer', group: 'Credits', value: (m) => m.credits_per_passed, format: (m) => formatCreditAmount(m.credits_per_passed), better: 'low' },
];

/** The best value of a column, when at least two models have one (one model has nothing to beat). */
function bestOf(column: Column, models: ModelSummary[]): number | null {
  if (!column.better) return null;
  const values = models.map(column.value).filter((v): v is number => v !== null);
  if (values.length < 2 || values.every((v) => v === values[0])) return null;
  return column.better === 'low' ? Math.min(...values) : Math.max(...values);
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

function bodyCell(column: Column, m: ModelSummary, best: number | null): string {
  const value = column.value(m);
  const isBest = best !== null && value === best;
  const mark = isBest ? '<span aria-hidden="true">★ </span><span class="sr-only">best: </span>' : '';
  const sortValue = value === null ? '' : String(value);
  return `<td data-sort-value="${esc(sortValue)}"${isBest ? ' class="best"' : ''}>${mark}${esc(column.format(m))}${column.extra?.(m) ?? ''}</td>`;
}

export function renderModelTable(summary: Summary): string {
  const entries = Object.entries(summary.models);
  if (entries.length === 0) return '<p>No requests were sent.</p>';
  const stats = entries.map(([, m]) => m);
  const bests = COLUMNS.map((c) => bestOf(c, stats));
  const rows = entries.map(([model, m], i) => {
    const swatch = `<svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="f${seriesIndex(i)}" width="12" height="12" rx="3"/></svg>`;
    const name = `<th scope="row" class="text" data-sort-value="${esc(modelLabel(model))}">${swatch}${esc(modelLabel(model))}</th>`;
    return `<tr data-model="${esc(model)}">${name}${COLUMNS.map((c, k) => bodyCell(c, m, bests[k]!)).join('')}</tr>`;
  });
  return `<div class="card table-scroll"><table id="model-table" data-sortable>
<caption class="sr-only">Models compared; column headers sort the table; ★ marks the best value of a column.</caption>
<thead>${headerRows()}</thead><tbody>${rows.join('\n')}</tbody></table>
<p class="note">★ marks the best value in a column. Timings are over successful answers; credits per passed answer divide everything spent by the answers that passed.</p></div>`;
}
