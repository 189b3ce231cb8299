// People's labels against a run's verdicts, in words: grader-check RUN_DIR and the run's console summary share these lines.
import type { AgreementFigures, PeopleAgreement } from '../domain/summary.js';
import type { GraderCalibration } from '../domain/run.js';

const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** `judge: 24 labels, accuracy 87.5%, kappa 0.71 [0.45, 0.97]`. */
export function agreementLine(group: string, a: AgreementFigures): string {
  const kappa = a.kappa === null ? '– (one verdict only)' : `${a.kappa.toFixed(2)}${a.kappa_ci95 ? ` [${a.kappa_ci95[0].toFixed(2)}, ${a.kappa_ci95[1].toFixed(2)}]` : ''}`;
  const c = a.confusion;
  return `${group}: ${a.n} labels, accuracy ${pct(a.accuracy)}, Cohen's kappa ${kappa}; both pass ${c.both_pass}, both fail ${c.both_fail}, grader pass / person fail ${c.grader_pass_human_fail}, grader fail / person pass ${c.grader_fail_human_pass}`;
}

/** Model-graded types first, then the deterministic checks together, then the answer's verdict. */
export function groupOrder(groups: Record<string, unknown>): string[] {
  const rank = (g: string): number => (g === 'answer' ? 2 : g === 'deterministic' ? 1 : 0);
  return Object.keys(groups).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function renderRunAgreement(r: PeopleAgreement): string[] {
  const lines = [`${r.labelled_answers} labelled answers${r.unmatched > 0 ? ` (${r.unmatched} labels name answers this run does not hold)` : ''}`];
  for (const group of groupOrder(r.groups)) lines.push(`  ${agreementLine(group, r.groups[group]!)}`);
  if (r.disagreements.length > 0) {
    lines.push('', `disagreements: ${r.disagreements.length}`);
    for (const d of r.disagreements) lines.push(`  ${d.item_id} ${d.group}${d.check_id ? ` (${d.check_id})` : ''}: person ${d.human}, grader ${d.grader}: ${d.detail}${d.note ? ` · note: ${d.note}` : ''}`);
  }
  return lines;
}

/** The checks that did not gate, and why: the verdict's explanation. */
export function calibrationLines(c: GraderCalibration): string[] {
  return Object.entries(c.types).map(([type, t]) => `${type} checks ${t.gating ? 'gate' : 'reported, not gating'}: ${t.reason} (grader: { min_kappa: ${c.min_kappa} })`);
}
