// labels.csv of a run directory: people's verdicts on its answers, one row per answer × check, appended as given.
// Its columns are grader-check's (id, question, answer, reference, rubric, type, human) plus the item and
// check ids, the note, the grader's verdict when the label was given and the time: grader-check reads
// the file as it is, and a later reader takes the last row of each item × check (append-only, last wins).
import { parse } from 'csv-parse/sync';
import { InputError } from '../domain/errors.js';
import type { CheckResult, Sample } from '../domain/sample.js';
import type { CheckSpec } from '../domain/suite.js';
import { csvRecord } from '../report/csv-row.js';

export const LABEL_COLUMNS = ['id', 'question', 'answer', 'reference', 'rubric', 'type', 'human', 'note', 'item_id', 'check_id', 'grader', 'labelled_at'] as const;

/** The check id of an answer with no checks: its label is the answer's alone. */
export const ANSWER_CHECK_ID = 'answer';

export interface RunLabel {
  item_id: string;
  check_id: string;
  /** The check's type as results.ndjson names it (`judge`, `contains`…); empty for an answer with no checks. */
  type: string;
  /** The person's verdict; null when a label was taken back (undo). */
  human: boolean | null;
  note: string;
  /** The grader's verdict when the label was given: pass, fail, not judged. */
  grader: string;
  line: number;
}

/** A check's id within its answer: its 1-based position and type (`2:factuality`), the same in every run of a suite. */
export function checkIdOf(index: number, check: Pick<CheckResult, 'type'>): string {
  return `${index + 1}:${check.type}`;
}

/** grader-check calls the judge check llm-rubric (promptfoo's name); the rest keep results.ndjson's names. */
const labelType = (type: string): string => (type === 'judge' ? 'llm-rubric' : type);
const resultType = (type: string): string => (type === 'llm-rubric' ? 'judge' : type);

const word = (pass: boolean | null): string => (pass === null ? '' : pass ? 'pass' : 'fail');

function specText(spec: CheckSpec | undefined, key: 'rubric' | 'reference'): string {
  if (spec === undefined || typeof spec.value !== 'object' || spec.value === null || Array.isArray(spec.value)) return '';
  const value = (spec.value as unknown as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : '';
}

export interface LabelGiven {
  human: boolean | null;
  note: string;
  /** ISO time the label was given. */
  at: string;
}

/**
 * The rows of one label: one per check of the answer (the grader's verdict beside it), or one for
 * an answer with no checks. `specs` are the suite's checks of the answer, when the suite can be read.
 */
export function labelRows(sample: Sample, specs: readonly CheckSpec[] | undefined, given: LabelGiven): string {
  const question = sample.prompt ?? '';
  const row = (checkId: string, type: string, grader: string, spec: CheckSpec | undefined): string =>
    csvRecord([
      `${sample.item_id}#${checkId}`, question, sample.text, specText(spec, 'reference'), specText(spec, 'rubric'), labelType(type),
      word(given.human), given.note, sample.item_id, checkId, grader, given.at,
    ]);
  if (sample.checks.length === 0) return row(ANSWER_CHECK_ID, '', word(sample.pass), undefined);
  return sample.checks
    .map((check, i) => {
      const spec = specs?.[i]?.type === check.type ? specs[i] : undefined;
      return row(checkIdOf(i, check), check.type, check.pass === null ? 'not judged' : word(check.pass), spec);
    })
    .join('');
}

export const LABELS_HEADER = csvRecord([...LABEL_COLUMNS]);

function humanOf(value: string, file: string, line: number): boolean | null {
  const v = value.trim().toLowerCase();
  if (v === '') return null;
  if (v === 'pass') return true;
  if (v === 'fail') return false;
  throw new InputError(`expected pass, fail or nothing, got "${value}"`, { file, line, field: 'human' });
}

/** Every item × check's last row (later rows win: a second tab, an undo). `file` names the file in errors. */
export function parseRunLabels(text: string, file: string): Map<string, RunLabel> {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, { columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, info: true }) as typeof records;
  } catch (error) {
    throw new InputError(`not a labels file: ${(error as Error).message}`, { file });
  }
  const labels = new Map<string, RunLabel>();
  for (const { record, info } of records) {
    const itemId = record.item_id?.trim();
    if (!itemId) throw new InputError('a row without an item_id (a labels.csv of a run names the answer it labels)', { file, line: info.lines, field: 'item_id' });
    const checkId = record.check_id?.trim() || ANSWER_CHECK_ID;
    labels.set(`${itemId}#${checkId}`, {
      item_id: itemId, check_id: checkId, type: resultType(record.type?.trim() ?? ''),
      human: humanOf(record.human ?? '', file, info.lines), note: record.note ?? '', grader: record.grader?.trim() ?? '', line: info.lines,
    });
  }
  return labels;
}

/** Each answer's label: the latest row given for any of its checks (one label covers the answer); taken-back labels left out. */
export function answerLabels(labels: ReadonlyMap<string, RunLabel>): Map<string, { human: boolean; note: string }> {
  const latest = new Map<string, RunLabel>();
  for (const label of labels.values()) {
    const seen = latest.get(label.item_id);
    if (seen === undefined || label.line > seen.line) latest.set(label.item_id, label);
  }
  const answers = new Map<string, { human: boolean; note: string }>();
  for (const [itemId, label] of latest) if (label.human !== null) answers.set(itemId, { human: label.human, note: label.note });
  return answers;
}
