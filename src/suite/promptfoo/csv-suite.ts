// A CSV with promptfoo's columns run on its own (`kbbench run tests.csv`): with a `prompt` column
// (a template of the row's variables) it is a suite; without one its prompts live in the
// promptfooconfig.yaml that names it, and the error says so. Told apart from kbbench's own CSV by
// its header, so kbbench's large CSVs keep their streaming reader.
import { parse } from 'csv-parse/sync';
import { InputError } from '../../domain/errors.js';
import type { ParsedSuite } from '../parsed-suite.js';
import { SuiteError, didYouMean } from '../suite-error.js';
import { makeItems } from './cases.js';
import { readCsvTests } from './csv-tests.js';
import { Problems } from './test-model.js';

/** kbbench's CSV columns besides id and prompt: they mean nothing in promptfoo's CSV. */
const KBBENCH_ONLY = ['thread', 'turn', 'model', 'tags', 'expected', 'expect_fail', 'method', 'streaming', 'plaintext', 'include_usage', 'additional_context', 'save_history', 'user', 'source'];
const PROMPTFOO_ONLY = /^__(?:metadata:|threshold$|prefix$|suffix$)/;
const NOTES = /^(?:description|notes?|comments?|__description)$/;

function headerOf(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 64 * 1024)).toString('utf8');
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  try {
    return ((parse(first, { bom: true, relax_quotes: true }) as string[][])[0] ?? []).map((name) => name.trim());
  } catch {
    return [];
  }
}

/** Is this CSV promptfoo's (variables or its __ columns) rather than kbbench's? Only the header is read. */
export function isPromptfooCsv(bytes: Uint8Array): boolean {
  const names = headerOf(bytes);
  const lower = names.map((name) => name.toLowerCase());
  if (lower.some((name) => KBBENCH_ONLY.includes(name))) return false;
  if (names.some((name) => PROMPTFOO_ONLY.test(name))) return true;
  // A column kbbench does not know, and {{…}} in the file: variables of a promptfoo-style CSV.
  const unknown = lower.some((name) => name !== '' && !name.startsWith('__') && !NOTES.test(name) && !['id', 'prompt'].includes(name));
  if (unknown && lower.includes('prompt')) return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024 * 1024)).includes('{{');
  // No prompt column: kbbench's reader says what it needs, unless this is plainly promptfoo's file.
  return !lower.includes('prompt') && !lower.includes('id') && names.some((name) => name.startsWith('__expected'));
}

/** A row's variable columns must each be used by a {{name}} somewhere: else it is a typo of a column. */
function unusedColumns(bytes: Uint8Array, file: string, problems: Problems): void {
  const names = headerOf(bytes).filter((name) => name !== '' && !name.startsWith('__') && !NOTES.test(name.toLowerCase()) && !['id', 'prompt'].includes(name.toLowerCase()));
  const text = Buffer.from(bytes).toString('utf8');
  for (const name of names) {
    if (new RegExp(`\\{\\{\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text)) continue;
    problems.add(`unknown column "${name}"${didYouMean(name, ['id', 'prompt', ...KBBENCH_ONLY])}: a column is a variable only when a {{${name}}} uses it`, { file, line: 1, field: name });
  }
}

/** A promptfoo-style CSV as a suite: each row a case, its prompt from the `prompt` column. */
export function parsePromptfooCsv(bytes: Uint8Array, file: string): ParsedSuite {
  const names = headerOf(bytes).map((name) => name.toLowerCase());
  if (!names.includes('prompt')) {
    const message = 'this is a promptfoo tests file (variables and __ columns, no prompt column): its prompts are in the promptfooconfig.yaml that names it (tests: file://…); run that config, or add a prompt column written with {{variables}}';
    throw new SuiteError([new InputError(message, { file, line: 1, field: 'header' })]);
  }
  const problems = new Problems();
  unusedColumns(bytes, file, problems);
  const tests = readCsvTests(bytes, file, problems).map((test) => {
    const { id, prompt, ...vars } = test.vars;
    const own = { ...test, vars, prompt: typeof prompt === 'string' ? prompt : '' };
    if (own.prompt.trim() === '') problems.add('prompt is empty', { ...test.location, field: 'prompt' });
    return typeof id === 'string' && id.trim() !== '' ? { ...own, id: id.trim() } : own;
  });
  const items = makeItems([], tests, problems);
  if (problems.issues.length > 0) throw new SuiteError(problems.issues);
  const tags = [...new Set(items.cases.flatMap((item) => item.tags ?? []))];
  return { target: {}, models: [], defaults: {}, cases: items.cases, threads: [], thresholds: {}, warnings: [], ...(tags.length > 0 ? { tags } : {}) };
}
