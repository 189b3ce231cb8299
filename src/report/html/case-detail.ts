// The panel a matrix cell opens: the prompt, then each model's answers side by side with checks, times, credits.
import type { CaseCell, CaseSummary } from '../../domain/summary.js';
import type { AnswerEvidence, Evidence } from '../evidence.js';
import { isCreateLine } from '../../metrics/case-stats.js';
import { getOwn } from '../../metrics/own-record.js';
import { EVIDENCE_LIMITS } from '../evidence.js';
import { formatCount, formatCreditAmount, formatMs, modelLabel } from '../format.js';
import { esc } from './escape.js';

export type CellState = 'pass' | 'fail' | 'error' | 'skipped';

export function cellState(cell: CaseCell): CellState {
  if (cell.requests === 0) return 'skipped';
  // `repeat_pass: k/n`: k passed repeats pass the cell (as metrics/case-table.ts cellStatus judges it).
  if (cell.repeat_pass !== undefined) return cell.passed >= cell.repeat_pass ? 'pass' : 'fail';
  if (cell.failed > 0) return 'fail';
  if (cell.errors > 0) return 'error';
  return cell.passed === cell.requests ? 'pass' : 'fail';
}

/** Symbol and words for a cell: ✓/✗/⚠/– carry the state without colour. */
export function cellText(cell: CaseCell): { symbol: string; short: string; words: string } {
  const state = cellState(cell);
  const skipped = cell.skipped > 0 && cell.requests > 0 ? `, ${cell.skipped} skipped` : '';
  const ratio = `${cell.passed}/${cell.requests}`;
  if (state === 'skipped') return { symbol: '–', short: 'skipped', words: `skipped (${cell.skipped} not sent)` };
  if (state === 'pass') return { symbol: '✓', short: ratio, words: `passed ${ratio}${skipped}` };
  if (state === 'error') return { symbol: '⚠', short: ratio, words: `request errors, passed ${ratio}${skipped}` };
  return { symbol: '✗', short: ratio, words: `failed, passed ${ratio}${skipped}` };
}

function facts(a: AnswerEvidence): string {
  const timing = (name: string, ms: number | null): string => (ms === null ? '' : `${name} ${formatMs(ms)} ms`);
  const credits = a.credits_unknown ? 'credits unknown' : a.credits_used === null ? '' : `${formatCreditAmount(a.credits_used)} credits`;
  const items =
    a.outcome === 'skipped'
      ? [`repeat ${a.repeat}`, 'not sent']
      : [
          `repeat ${a.repeat}`,
          a.status !== null ? `HTTP ${a.status}` : a.outcome,
          timing('TTFB', a.ttfb_ms),
          timing('TTFC', a.ttfc_ms),
          timing('latency', a.latency_ms),
          credits,
          a.attempts > 1 ? `${a.attempts} attempts` : '',
          a.reused_from !== undefined ? `reused from run ${a.reused_from} (not asked)` : '',
        ];
  return `<div class="facts">${items.filter(Boolean).map((i) => `<span>${esc(i)}</span>`).join('')}</div>`;
}

function checksList(a: AnswerEvidence): string {
  if (a.checks.length === 0) return '';
  const items = a.checks.map((c) => {
    const mark = c.pass === true
      ? '<span class="ok" aria-hidden="true">✓</span> <span class="sr-only">passed:</span>'
      : c.pass === null
        ? '<span aria-hidden="true">?</span> <span class="sr-only">not judged:</span>'
        : '<span class="no" aria-hidden="true">✗</span> <span class="sr-only">failed:</span>';
    const by = c.grader ? ` <span class="note">(graded by ${esc(c.grader)})</span>` : '';
    return `<li>${mark} <code>${esc(c.type)}</code> ${esc(c.detail)}${by}</li>`;
  });
  return `<ul class="checks" aria-label="Checks">${items.join('')}</ul>`;
}

function answerText(a: AnswerEvidence): string {
  // A skipped turn is a consequence, not a second failure: its reason reads as a note, not in red.
  if (a.outcome === 'skipped') return `<p class="note">Not sent: ${esc(a.error?.message ?? 'its conversation could not continue')}.</p>`;
  const error = a.error ? `<p class="answer-error">${esc(a.error.code)}: ${esc(a.error.message)}</p>` : '';
  if (a.text === '' && a.text_cut_from !== null) {
    return `${error}<p class="note">Answer text omitted: this report's answer budget is used up (samples.csv has every answer).</p>`;
  }
  const text = a.text === '' ? '' : `<pre>${esc(a.text)}</pre>`;
  const cut = a.text_cut_from !== null ? `<p class="note">Cut at ${formatCount(a.text.length)} of ${formatCount(a.text_cut_from)} characters; samples.csv has it whole.</p>` : '';
  return `${error}${text}${cut}`;
}

function modelColumn(model: string, cell: CaseCell | undefined, answers: AnswerEvidence[], headingLevel: number): string {
  const h = `h${headingLevel}`;
  if (!cell) return `<article class="answer-col" data-model="${esc(model)}"><${h}>${esc(modelLabel(model))}</${h}><p class="note">Not run for this model.</p></article>`;
  const { symbol, words } = cellText(cell);
  const state = cellState(cell);
  const badge = `<span class="badge ${state}">${symbol} ${esc(words)}</span>`;
  const shown = cell.requests + cell.skipped > answers.length ? `<p class="note">Showing ${answers.length} of ${cell.requests + cell.skipped} answers.</p>` : '';
  const body = answers.map((a) => `<div class="answer">${facts(a)}${checksList(a)}${answerText(a)}</div>`).join('');
  return `<article class="answer-col" data-model="${esc(model)}"><${h}>${esc(modelLabel(model))} ${badge}</${h}>${body}${shown}</article>`;
}

function promptBlock(evidence: Evidence, row: CaseSummary): string {
  // The create line carries its thread's first prompt, but creating a conversation sends no message.
  if (isCreateLine(row)) return '<p class="note">Opening the conversation (no message is sent); the turns below were not sent after it failed.</p>';
  const prompt = evidence.prompts.get(row.key);
  if (prompt === undefined && evidence.promptBudgetExhausted) return '<p class="note">Prompt omitted: this report’s prompt budget is used up (samples.csv has every prompt).</p>';
  if (prompt === undefined) return '<p class="note">The prompt was not recorded in results.ndjson.</p>';
  return `<div class="prompt"><span class="sr-only">Prompt: </span>${esc(prompt)}</div>`;
}

function rowBlock(row: CaseSummary, models: readonly string[], evidence: Evidence, isThread: boolean): string {
  const cells = evidence.cells.get(row.key);
  const columns = models.map((model) => modelColumn(model, getOwn(row.models, model), cells?.get(model)?.answers ?? [], isThread ? 5 : 4));
  const heading = !isThread ? '' : isCreateLine(row) ? '<h4>Creating the conversation</h4>' : `<h4>Turn ${esc(row.turn)}</h4>`;
  return `<div class="turn-block" data-turn="${esc(isThread ? (row.turn ?? 'create') : '')}">${heading}${promptBlock(evidence, row)}<div class="answers">${columns.join('')}</div></div>`;
}

/** A hidden panel for one case or one whole thread (turn by turn); the matrix's script shows it. */
export function renderCaseDetail(id: string, rows: CaseSummary[], models: readonly string[], evidence: Evidence): string {
  const first = rows[0]!;
  const isThread = first.thread_id !== null;
  const turns = rows.filter((row) => row.turn !== null).length;
  const title = isThread ? `Thread ${first.thread_id} · ${turns} turn${turns === 1 ? '' : 's'}` : `Case ${first.label}`;
  const blocks = rows.map((row) => rowBlock(row, models, evidence, isThread)).join('');
  return `<section class="card detail" id="${id}" hidden aria-labelledby="${id}-title">
<div class="detail-head"><h3 id="${id}-title" tabindex="-1">${esc(title)}</h3><button type="button" class="close" data-close="${id}">Close<span class="sr-only"> answers of ${esc(first.thread_id ?? first.label)}</span></button></div>
${blocks}
<p class="note">At most ${EVIDENCE_LIMITS.answersPerCell} answers per case and model are kept (a failing one first), each cut at ${formatCount(EVIDENCE_LIMITS.answerChars)} characters.</p>
</section>`;
}
