// Reads a YAML suite: parse with positions, validate with zod, report every problem with its line.
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { splitThresholdEntries } from '../metrics/threshold-abort.js';
import { InputError } from '../domain/errors.js';
import type { CheckSpec, SuiteCase, SuiteThread } from '../domain/suite.js';
import type { ParsedSuite } from './parsed-suite.js';
import { pickOptions } from './primitives.js';
import { durationMsOf } from '../domain/stages.js';
import { buildLoad } from './load-block.js';
import { isUnknownModel, semanticIssues, unknownModelWarning } from './semantic.js';
import { SuiteError } from './suite-error.js';
import { YamlLocator } from './yaml-locator.js';
import { readSplit } from './yaml-split-read.js';
import { suiteFileSchema, type CaseEntry, type SuiteFile, type ThreadEntry } from './yaml-schema.js';
import { zodPathIssues } from './zod-issues.js';

function syntaxError(error: YAMLError, lines: LineCounter, file: string): InputError {
  const { line, col } = lines.linePos(error.pos[0]);
  // yaml appends " at line L, column C"; the location already says that.
  const message = error.message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '');
  return new InputError(`YAML syntax: ${message}`, { file, line, column: col });
}

function parseYamlDocument(text: string, file: string): { raw: unknown; locator: YamlLocator } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) throw new SuiteError(doc.errors.map((error) => syntaxError(error, lines, file)));
  try {
    return { raw: doc.toJS({ maxAliasCount: 1000 }), locator: new YamlLocator(doc, lines, file) };
  } catch (error) {
    // toJS refuses alias bombs ("excessive alias count") and unresolvable aliases.
    throw new SuiteError([new InputError(`YAML: ${(error as Error).message}`, { file, line: 1, column: 1 })]);
  }
}

export function parseYamlSuite(text: string, file: string): ParsedSuite {
  // Item by item when the file has the plain shape and is valid; else whole, for exact errors.
  return parseSplitYamlSuite(text, file) ?? parseWholeYamlSuite(text, file);
}

/** The whole file as one Document: exact errors for any file (and the reference the split reading is tested against). */
export function parseWholeYamlSuite(text: string, file: string): ParsedSuite {
  const { raw, locator } = parseYamlDocument(text, file);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const message = 'a suite file is a YAML map with `cases:` and/or `threads:` (see CONTRACT.md)';
    throw new SuiteError([new InputError(message, { file, line: 1, column: 1 })]);
  }
  const parsed = suiteFileSchema.safeParse(raw, { reportInput: true });
  const issues = [...(parsed.success ? [] : zodPathIssues(parsed.error)), ...semanticIssues(raw as Record<string, unknown>, (path) => locator.position(path).line)];
  if (issues.length > 0 || !parsed.success) throw new SuiteError(issues.map((issue) => locator.error(issue)));
  return buildSuite(parsed.data, locator);
}

/** What building a suite needs of a locator: the whole file's (YamlLocator) or the item-by-item reader's. */
type SuiteLocator = Pick<YamlLocator, 'location' | 'warning'>;

function parseSplitYamlSuite(text: string, file: string): ParsedSuite | null {
  const raw = readSplit(text, file);
  if (raw === null) return null;
  const parsed = suiteFileSchema.safeParse(raw.value, { reportInput: true });
  if (!parsed.success || semanticIssues(raw.value, () => 0).length > 0) return null;
  return buildSuite(parsed.data, raw.locator);
}

function located(specs: readonly CheckSpec[] | undefined, path: readonly PropertyKey[], locator: SuiteLocator): CheckSpec[] {
  return (specs ?? []).map((spec, index) => ({ ...spec, location: locator.location([...path, 'assert', index]) }));
}

function buildCase(entry: CaseEntry, index: number, locator: SuiteLocator): SuiteCase {
  const path = ['cases', index];
  const built: SuiteCase = {
    id: entry.id,
    prompt: entry.prompt,
    options: pickOptions(entry),
    assert: located(entry.assert, path, locator),
    location: locator.location(path),
  };
  if (entry.models) built.models = entry.models;
  if (entry.expect_fail !== undefined) built.expect_fail = entry.expect_fail;
  if (entry.weight !== undefined) built.weight = entry.weight;
  if (entry.tags?.length) built.tags = entry.tags;
  if (entry.repeat_pass) built.repeat_pass = entry.repeat_pass;
  return built;
}

function buildThread(entry: ThreadEntry, index: number, locator: SuiteLocator): SuiteThread {
  const path = ['threads', index];
  const turns = entry.turns.map((turn, t) => {
    const turnPath = [...path, 'turns', t];
    return {
      turn: t + 1,
      prompt: turn.prompt,
      options: pickOptions(turn),
      assert: located(turn.assert, turnPath, locator),
      location: locator.location(turnPath),
    };
  });
  const built: SuiteThread = { id: entry.id, turns, location: locator.location(path) };
  if (entry.name !== undefined) built.name = entry.name;
  if (entry.models) built.models = entry.models;
  if (entry.expect_fail !== undefined) built.expect_fail = entry.expect_fail;
  if (entry.weight !== undefined) built.weight = entry.weight;
  if (entry.tags?.length) built.tags = entry.tags;
  if (entry.repeat_pass) built.repeat_pass = entry.repeat_pass;
  return built;
}

/** Unknown model names are warnings: model names change faster than this tool. */
function modelWarnings(file: SuiteFile, locator: SuiteLocator): string[] {
  const found: { path: PropertyKey[]; model: string }[] = [];
  const collect = (models: readonly string[] | undefined, path: PropertyKey[]): void => {
    models?.forEach((model, index) => found.push({ path: [...path, index], model }));
  };
  const judges = (specs: readonly CheckSpec[] | undefined, path: PropertyKey[]): void => {
    specs?.forEach((spec, index) => {
      const model = typeof spec.value === 'object' && !Array.isArray(spec.value) ? (spec.value as { model?: unknown }).model : undefined;
      if (typeof model === 'string') found.push({ path: [...path, 'assert', index], model });
    });
  };
  collect(file.models, ['models']);
  file.cases?.forEach((entry, index) => {
    collect(entry.models, ['cases', index, 'models']);
    judges(entry.assert, ['cases', index]);
  });
  file.threads?.forEach((entry, index) => {
    collect(entry.models, ['threads', index, 'models']);
    entry.turns.forEach((turn, t) => judges(turn.assert, ['threads', index, 'turns', t]));
  });
  return found.filter(({ model }) => isUnknownModel(model)).map(({ path, model }) => locator.warning(path, unknownModelWarning(model)));
}

function pickDefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function thresholdsOf(file: SuiteFile): Pick<ParsedSuite, 'thresholds' | 'threshold_aborts'> {
  const { expressions, aborts } = splitThresholdEntries(file.thresholds ?? {});
  return { thresholds: expressions, ...(aborts.length > 0 ? { threshold_aborts: aborts } : {}) };
}

/** `2s` → 2000 ms; a bare number is seconds (the schema has checked the form). */
function thinkMs(text: string): number {
  return durationMsOf(text)!;
}

/** A thread's think time: its own, else the suite's. */
function withThinkTime(thread: SuiteThread, value: string | number | undefined): SuiteThread {
  if (value === undefined) return thread;
  const bounds = typeof value === 'number' ? [value * 1000] : value.split('-').map(thinkMs);
  const min = Math.min(...bounds);
  const max = Math.max(...bounds);
  return { ...thread, think_time: { min_ms: min, max_ms: max } };
}

function buildSuite(file: SuiteFile, locator: SuiteLocator): ParsedSuite {
  const suite: ParsedSuite = {
    target: pickDefined(file.target ?? {}),
    models: file.models ?? [],
    defaults: pickOptions(file.defaults ?? {}),
    cases: (file.cases ?? []).map((entry, index) => buildCase(entry, index, locator)),
    threads: (file.threads ?? []).map((entry, index) => withThinkTime(buildThread(entry, index, locator), entry.think_time ?? file.think_time)),
    ...thresholdsOf(file),
    warnings: modelWarnings(file, locator),
  };
  const tags = new Set([...(file.cases ?? []), ...(file.threads ?? [])].flatMap((entry) => entry.tags ?? []));
  if (tags.size > 0) suite.tags = [...tags];
  if (file.repeat_pass) suite.repeat_pass = file.repeat_pass;
  if (file.name !== undefined) suite.name = file.name;
  if (file.workspace !== undefined) suite.workspace = file.workspace;
  if (file.load) suite.load = buildLoad(file.load, locator.location(['load']));
  if (file.grader) {
    const location = locator.location(['grader']);
    suite.grader = 'openai' in file.grader
      ? { kind: 'openai', base_url: file.grader.openai.base_url, model: file.grader.openai.model, location }
      : { kind: 'chat', ...pickDefined(file.grader), location };
  }
  if (file.knowledge) suite.knowledge = { patterns: file.knowledge, location: locator.location(['knowledge']) };
  return suite;
}
