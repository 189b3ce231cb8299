// promptfoo's `tests` and `defaultTest` as PromptfooTests: inline maps, `file://` entries (CSV,
// YAML, JSON, JSONL; globs) read through the shared include reader, and `$ref` assertion templates.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { isFileReference, resolveInclude } from '../include.js';
import { formatField } from '../suite-error.js';
import { KEY_HINTS } from './vocabulary.js';
import type { YamlLocator } from '../yaml-locator.js';
import { parseYamlDocument } from '../yaml.js';
import { readCsvTests } from './csv-tests.js';
import { metadataTags, shownPath, type Problems, type PromptfooTest, type RawAssert } from './test-model.js';

/** What a test reader needs: where the document's paths are, and the whole document for `$ref`. */
export interface TestSource {
  locator: YamlLocator;
  root: unknown;
  file: string;
}

const TEST_KEYS = ['vars', 'assert', 'description', 'threshold', 'options', 'metadata'];
const OPTION_KEYS = ['prefix', 'suffix'];

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `$ref: '#/assertionTemplates/x'`: the part of the document the JSON pointer names. */
function resolveRef(ref: unknown, root: unknown): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let node = root;
  for (const part of ref.slice(2).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (!isRecord(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

function readAsserts(raw: unknown, path: PropertyKey[], source: TestSource, problems: Problems): RawAssert[] {
  if (raw === undefined || raw === null) return [];
  const where = { ...source.locator.location(path), field: formatField(path) };
  if (!Array.isArray(raw)) {
    problems.add('assert is a list of assertions', where);
    return [];
  }
  return raw.map((entry, index) => {
    const at = [...path, index];
    let value = entry;
    if (isRecord(entry) && Object.hasOwn(entry, '$ref')) {
      value = resolveRef(entry.$ref, source.root);
      if (value === undefined) problems.add(`$ref "${String(entry.$ref)}" names nothing in this file (a local #/… pointer is read)`, { ...source.locator.location(at), field: formatField(at) });
    }
    return { kind: 'map', raw: value, location: source.locator.location(at), field: formatField(at) };
  });
}

function readOptions(test: PromptfooTest, raw: unknown, path: PropertyKey[], source: TestSource, problems: Problems): void {
  if (raw === undefined || raw === null) return;
  if (!isRecord(raw)) return problems.add('options is a map', { ...source.locator.location(path), field: formatField(path) });
  for (const [key, value] of Object.entries(raw)) {
    const where = { ...source.locator.location([...path, key]), field: formatField([...path, key]) };
    if (!OPTION_KEYS.includes(key)) problems.add(`option "${key}" is not read by kbbench${KEY_HINTS[key] ? `: ${KEY_HINTS[key]}` : ''}; options read: ${OPTION_KEYS.join(', ')}`, where);
    else if (typeof value !== 'string') problems.add('must be a text', where);
    else if (key === 'prefix') test.prefix = value;
    else test.suffix = value;
  }
}

function readMetadata(test: PromptfooTest, raw: unknown, path: PropertyKey[], source: TestSource, problems: Problems): void {
  if (raw === undefined || raw === null) return;
  const where = { ...source.locator.location(path), field: formatField(path) };
  if (!isRecord(raw)) return problems.add('metadata is a map', where);
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'conversationId') test.conversation = String(value);
    else test.tags.push(...metadataTags(name, value, where, problems));
  }
}

/** One test map (of `tests:` or `defaultTest:`) at `path` of its document. */
export function readTestMap(raw: unknown, path: PropertyKey[], source: TestSource, problems: Problems): PromptfooTest | undefined {
  const where = { ...source.locator.location(path), field: formatField(path) || 'test' };
  if (!isRecord(raw)) {
    problems.add('a test is a map with vars and assert (or file://PATH)', where);
    return undefined;
  }
  const test: PromptfooTest = { vars: {}, asserts: readAsserts(raw.assert, [...path, 'assert'], source, problems), tags: [], location: source.locator.location(path) };
  for (const key of Object.keys(raw).filter((k) => !TEST_KEYS.includes(k))) {
    problems.add(`unknown key "${key}" in a test${KEY_HINTS[key] ? ` (${KEY_HINTS[key]})` : ''}; keys read: ${TEST_KEYS.join(', ')}`, { ...source.locator.position([...path], key), file: source.file, field: formatField([...path, key]) });
  }
  if (isRecord(raw.vars)) test.vars = { ...raw.vars };
  else if (raw.vars !== undefined && raw.vars !== null) problems.add('vars is a map of names to values (a vars file is not read: write them here or as CSV columns)', { ...source.locator.location([...path, 'vars']), field: formatField([...path, 'vars']) });
  if (typeof raw.description === 'string') test.description = raw.description;
  if (raw.threshold !== undefined) {
    if (typeof raw.threshold === 'number' && raw.threshold >= 0 && raw.threshold <= 1) test.threshold = raw.threshold;
    else problems.add('threshold is a score between 0 and 1', { ...source.locator.location([...path, 'threshold']), field: formatField([...path, 'threshold']) });
  }
  readOptions(test, raw.options, [...path, 'options'], source, problems);
  readMetadata(test, raw.metadata, [...path, 'metadata'], source, problems);
  return test;
}

function readTestsFile(path: string, fromFile: string, problems: Problems): PromptfooTest[] {
  const shown = shownPath(path, fromFile);
  const extension = extname(path).toLowerCase();
  const bytes = readFileSync(path);
  if (extension === '.csv') return readCsvTests(bytes, shown, problems);
  if (extension === '.jsonl') {
    const lines = bytes.toString('utf8').split(/\r?\n/);
    return lines.flatMap((text, index) => {
      if (text.trim() === '') return [];
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        problems.add(`JSON: ${(error as Error).message}`, { file: shown, line: index + 1 });
        return [];
      }
      const { locator } = parseYamlDocument(text, shown);
      const test = readTestMap(value, [], { locator, root: value, file: shown }, problems);
      return test ? [{ ...test, location: { file: shown, line: index + 1 } }] : [];
    });
  }
  if (['.yaml', '.yml', '.json'].includes(extension)) {
    // JSON is YAML: one reader gives lines for both.
    const { raw, locator } = parseYamlDocument(bytes.toString('utf8').replace(/^\uFEFF/, ''), shown);
    return readTestList(raw, [], { locator, root: raw, file: shown }, problems);
  }
  problems.add('a tests file is .csv, .yaml, .yml, .json or .jsonl', { file: shown });
  return [];
}

/** `tests:` as written: a list of maps and `file://` entries, or one `file://` entry. */
export function readTestList(raw: unknown, path: PropertyKey[], source: TestSource, problems: Problems): PromptfooTest[] {
  if (raw === undefined || raw === null) return [];
  if (isFileReference(raw)) return readTestFiles(raw, path, source, problems);
  if (!Array.isArray(raw)) {
    problems.add('tests is a list of tests, or file://PATH (CSV, YAML, JSON; globs allowed)', { ...source.locator.location(path), field: formatField(path) || 'tests' });
    return [];
  }
  return raw.flatMap((entry, index) => {
    const at = [...path, index];
    if (isFileReference(entry)) return readTestFiles(entry, at, source, problems);
    const test = readTestMap(entry, at, source, problems);
    return test ? [test] : [];
  });
}

function readTestFiles(entry: string, path: PropertyKey[], source: TestSource, problems: Problems): PromptfooTest[] {
  const files = resolveInclude(entry, source.file);
  if (files.length === 0) problems.add(`${entry} names no file`, { ...source.locator.location(path), field: formatField(path) || 'tests' });
  return files.flatMap((file) => readTestsFile(file, source.file, problems));
}
