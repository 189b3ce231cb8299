// promptfoo's tests CSV: variable columns, `__expected`/`__expectedN` (a check per cell),
// `__description`, `__metadata:NAME` and `__metadata:NAME[]` (tags), `__threshold`, `__prefix`,
// `__suffix`. Small files, read whole; the rows become PromptfooTests.
import { parse } from 'csv-parse/sync';
import { metadataTags, type Problems, type PromptfooTest } from './test-model.js';

const EXPECTED = /^__expected\d*$/;
const METADATA = /^__metadata:([^[\]]+)(\[\])?$/;
const SPECIAL = ['__description', '__threshold', '__prefix', '__suffix'];

/** `a,b\,c` → ["a", "b,c"]: promptfoo's list metadata, where `\,` keeps a comma. */
function splitList(cell: string): string[] {
  return cell.split(/(?<!\\),/).map((part) => part.replace(/\\,/g, ',').trim()).filter((part) => part !== '');
}

function checkHeader(header: string[], file: string, problems: Problems): void {
  for (const name of header) {
    if (!name.startsWith('__') || EXPECTED.test(name) || METADATA.test(name) || SPECIAL.includes(name)) continue;
    problems.add(`unknown column "${name}"; promptfoo's columns kbbench reads: variables, __expected, __expectedN, __description, __metadata:NAME, __metadata:NAME[], __threshold, __prefix, __suffix`, { file, line: 1, field: name });
  }
}

function rowTest(header: string[], cells: string[], file: string, line: number, problems: Problems): PromptfooTest {
  const test: PromptfooTest = { vars: {}, asserts: [], tags: [], location: { file, line } };
  header.forEach((name, index) => {
    const cell = cells[index] ?? '';
    const where = { file, line, field: name };
    const metadata = METADATA.exec(name);
    if (EXPECTED.test(name)) {
      if (cell.trim() !== '') test.asserts.push({ kind: 'cell', text: cell, location: { file, line }, field: name });
    } else if (metadata) {
      test.tags.push(...metadataTags(metadata[1]!.trim(), metadata[2] ? splitList(cell) : cell, where, problems));
    } else if (name === '__description') {
      if (cell.trim() !== '') test.description = cell.trim();
    } else if (name === '__threshold') {
      if (cell.trim() === '') return;
      const threshold = Number(cell);
      if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) problems.add(`must be a score between 0 and 1, found "${cell}"`, where);
      else test.threshold = threshold;
    } else if (name === '__prefix') {
      if (cell !== '') test.prefix = cell;
    } else if (name === '__suffix') {
      if (cell !== '') test.suffix = cell;
    } else if (!name.startsWith('__')) {
      test.vars[name] = cell;
    }
  });
  return test;
}

/** Each row of a promptfoo tests CSV as a test; problems (with file, line, column name) are collected. */
export function readCsvTests(bytes: Uint8Array, file: string, problems: Problems): PromptfooTest[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(Buffer.from(bytes), { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as typeof records;
  } catch (error) {
    problems.add(`CSV syntax: ${(error as Error).message}`, { file });
    return [];
  }
  const [head, ...rows] = records;
  if (head === undefined) {
    problems.add('the CSV file is empty; a promptfoo tests file has a header row of variables and __expected columns', { file, line: 1 });
    return [];
  }
  const header = head.record.map((name) => name.trim());
  checkHeader(header, file, problems);
  // csv-parse's info.lines is the line a record ends on; the next record starts after it.
  let line = head.info.lines + 1;
  return rows.map(({ record, info }) => {
    const test = rowTest(header, record, file, line, problems);
    line = info.lines + 1;
    return test;
  });
}
