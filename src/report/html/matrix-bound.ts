// Which cases report.html's matrix shows when a suite has more than a page can hold: problems first.
import type { CaseSummary } from '../../domain/summary.js';
import { formatCount } from '../format.js';

/**
 * A 100,000-case CSV suite would make a 220 MB page (a row and an answer panel per case). Past
 * this many rows the matrix keeps the cases and threads with a failure or request error first,
 * then the rest in run order; samples.csv and junit.xml keep every one.
 */
export const MAX_MATRIX_ROWS = 500;

export interface CaseGroup {
  id: string;
  threadId: string | null;
  rows: CaseSummary[];
}

function hasProblem(group: CaseGroup): boolean {
  return group.rows.some((row) => Object.values(row.models).some((cell) => cell.failed > 0 || cell.errors > 0));
}

/**
 * Whole groups (a thread with all its turns) in run order, at most `limit` rows; a first group too
 * big is cut. Within problems and within the rest, groups whose answers the report kept
 * (`hasAnswers`, see EVIDENCE_LIMITS) come first, so a shown row rarely lacks its answers.
 */
export function boundGroups(groups: readonly CaseGroup[], limit: number = MAX_MATRIX_ROWS, hasAnswers: (group: CaseGroup) => boolean = () => true): CaseGroup[] {
  const total = groups.reduce((n, g) => n + g.rows.length, 0);
  if (total <= limit) return [...groups];
  const taken = new Map<CaseGroup, CaseGroup>();
  let budget = limit;
  const passes: Array<[problem: boolean, answers: boolean]> = [[true, true], [true, false], [false, true], [false, false]];
  for (const [wantProblem, wantAnswers] of passes) {
    for (const group of groups) {
      if (budget <= 0) break;
      if (taken.has(group) || hasProblem(group) !== wantProblem || hasAnswers(group) !== wantAnswers) continue;
      if (group.rows.length <= budget) taken.set(group, group);
      else if (taken.size === 0) taken.set(group, { ...group, rows: group.rows.slice(0, budget) });
      else continue;
      budget -= taken.get(group)!.rows.length;
    }
  }
  return groups.flatMap((group) => taken.get(group) ?? []);
}

/**
 * The sentence above a bounded matrix; empty when everything is shown. `distinct` is the run's
 * count when summary.json itself kept only the worst cases (its `cases_truncated`).
 */
export function boundNote(all: readonly CaseGroup[], shown: readonly CaseGroup[], distinct?: number): string {
  const count = (groups: readonly CaseGroup[]): number => groups.reduce((n, g) => n + g.rows.length, 0);
  const listed = count(all);
  const total = Math.max(listed, distinct ?? 0);
  if (count(shown) === total) return '';
  const kept = total > listed ? ` summary.json keeps the ${formatCount(listed)} worst (most failures and errors, then slowest);` : '';
  return `Showing ${formatCount(count(shown))} of ${formatCount(total)} cases and turns: those with a failed check or a request error first, then the rest in run order.${kept} cases.csv, samples.csv and junit.xml hold every one.`;
}
