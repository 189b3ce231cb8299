// report.html's "People's verdicts" section: labels.csv against the run's verdicts (accuracy, Cohen's kappa
// with its interval, the confusion table, disagreements) and which model-graded checks gated the verdict.
import type { Summary } from '../../domain/summary.js';
import { groupOrder } from '../agreement-text.js';
import { formatCount } from '../format.js';
import { esc, userText } from './escape.js';

const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null): string => (x === null ? '–' : x.toFixed(2));

function calibration(summary: Summary): string {
  const c = summary.grader_calibration;
  if (c === undefined) return '';
  const rows = Object.entries(c.types).map(
    ([type, t]) => `<tr><th scope="row">${esc(type)}</th><td class="num">${formatCount(t.n)}</td><td class="num">${esc(num(t.kappa))}</td><td class="${t.gating ? 'pass' : 'fail'}">${t.gating ? 'gates' : 'reported, not gating'}</td><td>${esc(t.reason)}</td></tr>`,
  );
  return `<h3>Grader calibration</h3><p>The suite asks for kappa ≥ ${esc(c.min_kappa)} over at least ${esc(c.min_labels)} labels (<code>${esc(c.labels)}</code>), measured when the run started.</p>
<div class="scroll"><table id="calibration-table"><thead><tr><th scope="col">Check type</th><th scope="col">Labels</th><th scope="col">Kappa</th><th scope="col">Gate</th><th scope="col">Why</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function agreementTable(summary: Summary): string {
  const a = summary.agreement;
  if (a === undefined) return '';
  const rows = groupOrder(a.groups).map((group) => {
    const g = a.groups[group]!;
    const ci = g.kappa_ci95 ? ` [${num(g.kappa_ci95[0])}, ${num(g.kappa_ci95[1])}]` : '';
    const c = g.confusion;
    return `<tr><th scope="row">${esc(group)}</th><td class="num">${formatCount(g.n)}</td><td class="num">${esc(pct(g.accuracy))}</td><td class="num">${esc(num(g.kappa) + ci)}</td><td class="num">${c.both_pass}</td><td class="num">${c.both_fail}</td><td class="num">${c.grader_pass_human_fail}</td><td class="num">${c.grader_fail_human_pass}</td></tr>`;
  });
  const dis = a.disagreements.map(
    (d) => `<tr><td>${userText(d.item_id, 80)}</td><td>${esc(d.group)}</td><td class="${d.human}">${esc(d.human)}</td><td class="${d.grader}">${esc(d.grader)}</td><td>${esc(d.detail)}</td><td>${esc(d.note)}</td></tr>`,
  );
  return `<p>${formatCount(a.labelled_answers)} answers labelled by people (labels.csv); where a person labelled an answer, that label is its verdict in this report (the grader's is kept in results.ndjson).</p>
<div class="scroll"><table id="agreement-table"><thead><tr><th scope="col">Checks</th><th scope="col">Labels</th><th scope="col">Accuracy</th><th scope="col">Cohen's kappa [95% CI]</th><th scope="col">Both pass</th><th scope="col">Both fail</th><th scope="col">Grader pass, person fail</th><th scope="col">Grader fail, person pass</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>
${dis.length > 0 ? `<h3>Disagreements</h3><div class="scroll"><table id="disagreements"><thead><tr><th scope="col">Answer</th><th scope="col">Checks</th><th scope="col">Person</th><th scope="col">Grader</th><th scope="col">Grader's reason</th><th scope="col">Note</th></tr></thead><tbody>${dis.join('')}</tbody></table></div>` : ''}`;
}

/** Empty when the run has no labels and no calibration rule: the section is then left out. */
export function renderAgreementSection(summary: Summary): string {
  return `${agreementTable(summary)}${calibration(summary)}`;
}
