// A grader-check labels file: answers with the verdict a person gave, read from CSV.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { InputError } from '../domain/errors.js';
import type { CheckSpec } from '../domain/suite.js';

export interface LabelRow {
  id: string;
  line: number;
  question: string;
  answer: string;
  /** The check the grader is asked: llm-rubric (a rubric), factuality (a reference), or the `type` column's. */
  spec: CheckSpec;
  /** The person's verdict. */
  human: boolean;
}

const HUMAN_COLUMNS = ['human', 'verdict', 'label', 'expected_pass'];
const TYPES = ['llm-rubric', 'factuality', 'answer-relevance'] as const;

function humanVerdict(value: string, file: string, line: number, column: string): boolean {
  const v = value.trim().toLowerCase();
  if (['pass', 'passed', 'true', 'yes', '1'].includes(v)) return true;
  if (['fail', 'failed', 'false', 'no', '0'].includes(v)) return false;
  throw new InputError(`expected pass or fail, got "${value}"`, { file, line, field: column });
}

function specOf(row: Record<string, string>, file: string, line: number): CheckSpec {
  const type = (row.type ?? '').trim() || (row.rubric?.trim() ? 'llm-rubric' : 'factuality');
  if (!(TYPES as readonly string[]).includes(type)) throw new InputError(`type must be one of ${TYPES.join(', ')}, got "${type}"`, { file, line, field: 'type' });
  if (type === 'llm-rubric') {
    if (!row.rubric?.trim()) throw new InputError('an llm-rubric row needs a rubric', { file, line, field: 'rubric' });
    return { type: 'judge', value: { rubric: row.rubric.trim() } };
  }
  if (type === 'factuality') {
    if (!row.reference?.trim()) throw new InputError('a factuality row needs a reference (or a rubric, for llm-rubric)', { file, line, field: 'reference' });
    return { type: 'factuality', value: { reference: row.reference.trim() } };
  }
  return { type: 'answer-relevance', value: {} };
}

type CsvRecord = { record: Record<string, string>; info: { lines: number } };

/**
 * A run's labels.csv (run-labels.ts) as grader-check grades it: each item × check's last row, rows
 * taken back (no verdict) left out, and only the checks a grader can grade from the row alone
 * (its rubric or reference): deterministic checks and context checks need the run, not a grader.
 */
function runRows(records: CsvRecord[]): CsvRecord[] {
  if (!('item_id' in (records[0]?.record ?? {}))) return records;
  const last = new Map<string, CsvRecord>();
  for (const r of records) last.set(`${r.record.item_id}#${r.record.check_id}`, r);
  return [...last.values()].filter(({ record }) => (record.human ?? '').trim() !== '' && (TYPES as readonly string[]).includes((record.type ?? '').trim()));
}

/** Columns: answer and a person's verdict (`human`: pass/fail) required; question, reference, rubric, type, id optional. */
export function readLabels(file: string): LabelRow[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the labels file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file });
  }
  let records: CsvRecord[];
  try {
    records = parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: false, info: true }) as typeof records;
  } catch (error) {
    throw new InputError(`not a CSV file: ${(error as Error).message}`, { file });
  }
  const first = records[0]?.record ?? {};
  const humanColumn = HUMAN_COLUMNS.find((c) => c in first);
  if (records.length === 0) throw new InputError('the labels file has no rows', { file });
  if (!('answer' in first)) throw new InputError('the labels file needs an answer column', { file, line: 1, field: 'answer' });
  if (humanColumn === undefined) throw new InputError(`the labels file needs a column with a person's verdict (${HUMAN_COLUMNS.join(' or ')})`, { file, line: 1 });
  return runRows(records).map(({ record, info }, index) => {
    const line = info.lines;
    return {
      id: record.id?.trim() || `row ${index + 1}`,
      line,
      question: record.question ?? '',
      answer: record.answer ?? '',
      spec: specOf(record, file, line),
      human: humanVerdict(record[humanColumn] ?? '', file, line, humanColumn),
    };
  });
}
