// doctor's words on the console: the plan before sending, the table of rows, the one-line verdict.
import { FIRST_ANSWER_ESTIMATE, round5 } from './context.js';
import { PLANNED_REQUESTS } from './plan.js';
import { describeForm } from './context.js';
import type { DoctorReport, ProbeRow, ProbeStatus } from './types.js';

/** Answers refused on purpose (unknown ids, model) are expected to cost nothing. */
const PAID_ANSWERS = PLANNED_REQUESTS.filter((r) => r.answer && !r.request.includes('expected refused')).length;

export function planLines(target: { baseUrl: string; boardId?: string; chatId?: string; maxCredits: number }): string[] {
  const where = target.boardId && target.chatId ? `board ${target.boardId}, chat ${target.chatId}` : 'the first board and chat listed';
  const expected = round5(PAID_ANSWERS * FIRST_ANSWER_ESTIMATE);
  return [
    `kbbench doctor: at most ${PLANNED_REQUESTS.length} requests to ${target.baseUrl} (${where}):`,
    ...PLANNED_REQUESTS.map((r, i) => `  ${String(i + 1).padStart(2)}. ${r.request}`),
    `  ${PAID_ANSWERS} answers are paid: about ${expected} credits at ${FIRST_ANSWER_ESTIMATE} an answer (public-facts.md's example); it stops before passing --max-credits ${target.maxCredits}.`,
  ];
}

const MARK: Record<ProbeStatus, string> = { conforms: 'ok  ', differs: 'DIFF', not_tested: '--  ' };

export function rowLines(rows: readonly ProbeRow[]): string[] {
  const width = Math.max(...rows.map((r) => r.probe.length));
  return rows.flatMap((row) => {
    const line = `${MARK[row.status]}  ${row.probe.padEnd(width)}  ${row.status === 'not_tested' ? `not tested: ${row.observed}` : row.observed}`;
    return row.status === 'differs' ? [line, `${' '.repeat(width + 8)}documented: ${row.documented}`] : [line];
  });
}

export function verdictLine(report: DoctorReport, written: string | null): string {
  const count = (status: ProbeStatus): number => report.rows.filter((r) => r.status === status).length;
  const tally = `${count('conforms')} conform, ${count('differs')} differ, ${count('not_tested')} not tested`;
  const found = [
    report.dialect ? `stream dialect ${report.dialect}` : 'no stream dialect seen',
    report.auth ? `key as the ${describeForm(report.auth)}` : 'no key form accepted',
  ].join(', ');
  const spent = `${report.requests_sent} requests, ${report.credits_spent} credits`;
  const file = written ? ` → ${written}` : '';
  const why = report.stopped ? ` (${report.stopped})` : '';
  return `doctor: ${report.verdict}${why}: ${tally}; ${found}; ${spent}${file}`;
}
