// The case × model matrix: a pass/fail button per cell (symbol, ratio and colour) opening that case's answers.
import type { CaseSummary, Summary } from '../../domain/summary.js';
import { isCreateLine } from '../../metrics/case-stats.js';
import { getOwn } from '../../metrics/own-record.js';
import type { Evidence } from '../evidence.js';
import { modelLabel } from '../format.js';
import { cellState, cellText, renderCaseDetail } from './case-detail.js';
import { esc } from './escape.js';
import { boundGroups, boundNote, MAX_MATRIX_ROWS, type CaseGroup } from './matrix-bound.js';

type Group = CaseGroup;

/** Consecutive rows of one thread form a group (the summarizer keeps a thread's turns together). */
export function groupCases(cases: readonly CaseSummary[]): Group[] {
  const groups: Group[] = [];
  for (const row of cases) {
    const last = groups.at(-1);
    if (last && row.thread_id !== null && last.threadId === row.thread_id) last.rows.push(row);
    else groups.push({ id: `detail-${groups.length + 1}`, threadId: row.thread_id, rows: [row] });
  }
  return groups;
}

function cell(row: CaseSummary, model: string, group: Group): string {
  const c = getOwn(row.models, model);
  if (!c) return '<td><span aria-hidden="true">·</span><span class="sr-only">not run</span></td>';
  const { symbol, short, words } = cellText(c);
  const label = `${row.label}, ${modelLabel(model)}: ${words}. Show answers.`;
  const skipped = c.skipped > 0 && c.requests > 0 ? ` <small>+${c.skipped} skipped</small>` : '';
  return `<td><button type="button" class="cell ${cellState(c)}" aria-controls="${group.id}" aria-expanded="false" data-detail="${group.id}" data-model="${esc(model)}" data-turn="${esc(row.thread_id === null ? '' : (row.turn ?? 'create'))}" aria-label="${esc(label)}"><span aria-hidden="true">${symbol} ${esc(short)}${skipped}</span></button></td>`;
}

/** `3 turns, in order`; a failed conversation's create line is a row, not a turn. */
export function threadNote(rows: readonly CaseSummary[]): string {
  const turns = rows.filter((row) => row.turn !== null).length;
  return `${turns} turn${turns === 1 ? '' : 's'}, in order${rows.length > turns ? '; creating the conversation failed at least once' : ''}`;
}

/** The prompt under the row's name: shortened, the whole of it on hover (title). */
function promptLine(prompt: string | undefined): string {
  if (prompt === undefined || prompt === '') return '';
  const flat = prompt.replace(/\s+/g, ' ').trim();
  const short = flat.length > PROMPT_SHOWN ? `${flat.slice(0, PROMPT_SHOWN - 1)}…` : flat;
  return `<br><span class="row-prompt" title="${esc(flat)}">${esc(short)}</span>`;
}

const PROMPT_SHOWN = 60;

function rowName(row: CaseSummary, inThread: boolean, prompt: string | undefined): string {
  if (!inThread) return `<th scope="row">${esc(row.label)}${promptLine(prompt)}</th>`;
  return `<th scope="row" class="turn">${isCreateLine(row) ? 'create conversation' : `turn ${esc(row.turn)}${promptLine(prompt)}`}</th>`;
}

/** A group with any cell that did not pass: what "failures only" keeps. */
function failing(group: Group, models: readonly string[]): boolean {
  return group.rows.some((row) => models.some((m) => {
    const c = getOwn(row.models, m);
    return c !== undefined && cellState(c) !== 'pass';
  }));
}

function groupRows(group: Group, models: readonly string[], prompts: ReadonlyMap<string, string>): string {
  const rows: string[] = [];
  if (group.threadId !== null) {
    rows.push(`<tr class="thread"><th scope="rowgroup" colspan="${models.length + 1}">Thread ${esc(group.threadId)} <span class="note">· ${esc(threadNote(group.rows))}</span></th></tr>`);
  }
  for (const row of group.rows) {
    const name = rowName(row, group.threadId !== null, prompts.get(row.key));
    rows.push(`<tr>${name}${models.map((m) => cell(row, m, group)).join('')}</tr>`);
  }
  return rows.join('\n');
}

function totalsRow(summary: Summary, models: readonly string[]): string {
  const cells = models.map((m) => {
    const s = summary.models[m]!;
    return `<td><strong>${s.passed}/${s.requests}</strong></td>`;
  });
  return `<tfoot><tr><th scope="row">Passed requests</th>${cells.join('')}</tr></tfoot>`;
}

export function renderMatrix(summary: Summary, evidence: Evidence): string {
  const models = Object.keys(summary.models);
  if (summary.cases.length === 0) return '<p>No cases ran.</p>';
  const all = groupCases(summary.cases);
  const groups = boundGroups(all, MAX_MATRIX_ROWS, (g) => g.rows.some((row) => evidence.cells.has(row.key)));
  const note = boundNote(all, groups, summary.cases_truncated?.distinct);
  const bound = note === '' ? '' : `<p class="note bound" role="note">${esc(note)}</p>`;
  const head = `<thead><tr><th scope="col">Case</th>${models.map((m) => `<th scope="col">${esc(modelLabel(m))}</th>`).join('')}</tr></thead>`;
  const body = groups.map((g) => `<tbody data-failing="${failing(g, models)}">${groupRows(g, models, evidence.prompts)}</tbody>`).join('\n');
  const toolbar = `<div class="toolbar"><label><input type="checkbox" id="failures-only"> Failures only</label>
<button type="button" id="expand-all">Expand all</button><button type="button" id="collapse-all">Collapse all</button></div>`;
  const panels = groups.map((g) => renderCaseDetail(g.id, g.rows, models, evidence)).join('\n');
  return `${bound}${toolbar}<div class="card table-scroll"><table class="matrix" id="matrix">
<caption class="sr-only">Pass or fail per case and model; each cell is a button that shows the answers.</caption>
${head}${body}${totalsRow(summary, models)}</table>
<p class="note">✓ all passed · ✗ a check failed · ⚠ request error · – skipped. The ratio counts passing requests over repeats. Select a cell to compare the answers.</p></div>
<div id="details">${panels}</div>`;
}
