// report.html's Credits section: spend by model, turn position and case, cost per passed answer, the
// balance over the run (and where its last value came from), and the ledger's reconciliation findings.
import type { CreditsSummary } from '../../domain/credits.js';
import type { Summary } from '../../domain/summary.js';
import { formatCount, formatCredits, formatDurationMs, modelLabel } from '../format.js';
import { esc } from './escape.js';
import { reusedTimingsApart } from '../../metrics/reused-answers.js';

/** The case table of the section lists the dearest cases only: the matrix and cases.csv have them all. */
export const MAX_CREDIT_CASES = 20;

function table(head: string[], rows: string[][], caption: string): string {
  const th = head.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row" class="label">${esc(c)}</th>` : `<td class="num">${esc(c)}</td>`)).join('')}</tr>`).join('');
  return `<table class="credits"><caption>${esc(caption)}</caption><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

/** Case × model rows, dearest first: a case's spend is per model (models differ tenfold in price). */
function dearestCases(summary: Summary): string[][] {
  const rows = summary.cases.flatMap((c) => Object.entries(c.models).map(([model, x]) => ({ label: c.label, model, sum: x.credits_used, requests: x.requests, passed: x.passed })));
  rows.sort((a, b) => b.sum - a.sum);
  return rows.slice(0, MAX_CREDIT_CASES).map((r) => [
    r.label, modelLabel(r.model), formatCredits(r.sum), formatCount(r.requests), formatCredits(r.requests > 0 ? r.sum / r.requests : null), formatCredits(r.passed > 0 ? r.sum / r.passed : null),
  ]);
}

/** A small line of the balance as answers reported it; the numbers are in the table beside it. */
function balanceLine(trace: CreditsSummary['remaining_over_run']): string {
  if (trace.length < 2) return '';
  const w = 480;
  const h = 80;
  const t0 = trace[0]!.offset_ms;
  const t1 = Math.max(t0 + 1, trace.at(-1)!.offset_ms);
  const hi = Math.max(...trace.map((p) => p.credits));
  const lo = Math.min(...trace.map((p) => p.credits));
  const span = hi - lo || 1;
  const points = trace.map((p) => `${(((p.offset_ms - t0) / (t1 - t0)) * w).toFixed(1)},${(h - ((p.credits - lo) / span) * h).toFixed(1)}`).join(' ');
  return `<figure class="chart"><svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="Credits remaining over the run, from ${esc(formatCredits(hi))} to ${esc(formatCredits(lo))}"><polyline fill="none" stroke="currentColor" stroke-width="1.5" points="${points}"/></svg><figcaption>Credits remaining as answers reported them: ${esc(formatCredits(hi))} → ${esc(formatCredits(lo))}</figcaption></figure>`;
}

function reconciliation(c: CreditsSummary): string {
  const r = c.reconciliation;
  if (r.answers < 2) return `<p>Reconciliation: fewer than two answers reported a balance, so there is nothing to reconcile.</p>`;
  const head = `<p>Reconciliation over ${formatCount(r.answers)} answers that reported a balance (${esc(formatCredits(r.start_remaining))} → ${esc(formatCredits(r.end_remaining))}): `;
  if (r.gaps.length === 0) return `${head}every step down is the cost of the answer that made it. <strong>No unexplained spend.</strong></p>`;
  const rows = r.gaps.map((g) => [`${g.after_item} → ${g.before_item}`, formatCredits(g.from_remaining), formatCredits(g.to_remaining), formatCredits(g.expected), formatCredits(g.amount)]);
  const more = r.gaps_left_out > 0 ? ` (${formatCount(r.gaps_left_out)} smaller gaps not listed)` : '';
  const checks = r.check_credits > 0 ? `, of which judges account for ${esc(formatCredits(r.check_credits))}` : '';
  return `${head}<strong>${esc(formatCredits(r.unexplained))} credits unexplained</strong> — spend from outside the run on the same account, or a misreport${checks}${more}.</p>
${table(['between answers', 'from', 'to', 'expected', 'gap'], rows, 'Steps of the balance that the answers do not explain')}`;
}

/** --reuse-answers: spent now beside saved, and what the reused answers took when they were asked (out of this run's timings). */
function reusedParagraph(summary: Summary): string {
  const r = summary.reused;
  if (r === undefined) return '';
  const ttfc = r.ttfc_ms ? `; when asked, their TTFC p50 was ${esc(formatDurationMs(r.ttfc_ms.p50))} and latency p50 ${esc(formatDurationMs(r.latency_ms?.p50 ?? null))}` : '';
  const unknown = r.credits_saved_unknown > 0 ? ` (and ${formatCount(r.credits_saved_unknown)} answers of unknown cost)` : '';
  return `<p class="reused">Reused answers: <strong>${formatCount(r.answers)}</strong> taken from run ${esc(r.from.join(', '))}, not asked again (marked reused_from in every result line). Credits spent now: <strong>${esc(formatCredits(summary.totals.credits_used))}</strong>; saved: <strong>${esc(formatCredits(r.credits_saved))}</strong>${unknown}. ${reusedTimingsApart(r) ? ` Their timings are left out of this run's figures${ttfc}.` : ''}</p>`;
}

export function renderCreditsSection(summary: Summary): string {
  const c = summary.credits;
  if (!c) return '<p>This run\'s summary has no credits section (written by an older kbbench).</p>';
  const models = Object.entries(c.models).map(([m, s]) => [m, formatCredits(s.sum), formatCount(s.requests), formatCredits(s.mean), formatCredits(s.sd), formatCredits(s.per_passed)]);
  const turns = Object.entries(c.turns).map(([t, s]) => [t === 'case' ? 'one-time cases' : `thread ${t}`, formatCredits(s.sum), formatCount(s.requests), formatCredits(s.mean), formatCredits(s.sd)]);
  const remaining = `<p>Credits remaining at the end: <strong>${esc(formatCredits(c.remaining.credits))}</strong> (${esc(c.remaining.source)}: ${esc(c.remaining.detail)}). Cost per passed answer: <strong>${esc(formatCredits(c.per_passed))}</strong>.</p>`;
  const m = c.money;
  const cur = m?.currency ? ` ${m.currency}` : '';
  const money = m
    ? `<p>In money at ${esc(m.credit_price)}${esc(cur)} a credit: <strong>${esc(m.total)}${esc(cur)}</strong> spent (${Object.entries(m.models).map(([model, v]) => `${esc(model)} ${esc(v)}${esc(cur)}`).join(', ')}); ${esc(m.per_passed ?? '–')}${esc(cur)} per passed answer${m.remaining !== null ? `; ${esc(m.remaining)}${esc(cur)} of credits remain` : ''}.</p>`
    : '';
  return [
    remaining,
    reusedParagraph(summary),
    money,
    table(['model', 'credits', 'requests', 'mean', 'sd', 'per passed'], models, 'Spend by model'),
    table(['position', 'credits', 'requests', 'mean', 'sd'], turns, 'Spend by turn position (history grows with the turn)'),
    table(['case', 'model', 'credits', 'requests', 'mean', 'per passed'], dearestCases(summary), `Spend by case and model (the ${MAX_CREDIT_CASES} dearest)`),
    balanceLine(c.remaining_over_run),
    reconciliation(c),
  ].join('\n');
}
