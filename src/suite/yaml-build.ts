// Builds a ParsedSuite from a validated YAML suite: one owner for both readings (the whole file,
// and the item-by-item stream), so they give the same suite by construction.
import { splitThresholdEntries } from '../metrics/threshold-abort.js';
import type { CheckSpec, RequestOptions, SourceLocation, SuiteCase, SuiteThread } from '../domain/suite.js';
import { durationMsOf } from '../domain/stages.js';
import { InputError } from '../domain/errors.js';
import type { ParsedSuite, SuiteInclude } from './parsed-suite.js';
import { pickOptions } from './primitives.js';
import { buildLoad } from './load-block.js';
import { isUnknownModel, unknownModelWarning } from './semantic.js';
import type { CaseEntry, SuiteFile, ThreadEntry } from './yaml-schema.js';

/** What building a suite needs of a locator: where a path was written, and a warning there. */
export interface SuiteLocator {
  location(path: readonly PropertyKey[]): SourceLocation;
  warning(path: readonly PropertyKey[], message: string): string;
}

/**
 * What most items share: no options of their own, no checks. One frozen object and array for all
 * of them instead of ~90 bytes per turn (a 100k-thread suite is held whole while it runs; nothing
 * writes to an item's options or checks, and freezing makes sure of it).
 */
const NO_OPTIONS: RequestOptions = Object.freeze({});
const NO_CHECKS = Object.freeze([]) as unknown as CheckSpec[];

function optionsOf(source: Parameters<typeof pickOptions>[0]): RequestOptions {
  const options = pickOptions(source);
  return Object.keys(options).length > 0 ? options : NO_OPTIONS;
}

function located(specs: readonly CheckSpec[] | undefined, path: readonly PropertyKey[], locator: SuiteLocator): CheckSpec[] {
  if (specs === undefined || specs.length === 0) return NO_CHECKS;
  return specs.map((spec, index) => ({ ...spec, location: locator.location([...path, 'assert', index]) }));
}

/** The fields a case and a thread share, set only when the suite gives them (an absent key stays absent). */
function withExtras<T extends SuiteCase | SuiteThread>(built: T, entry: CaseEntry | ThreadEntry): T {
  if (entry.models) built.models = entry.models;
  if (entry.expect_fail !== undefined) built.expect_fail = entry.expect_fail;
  if (entry.weight !== undefined) built.weight = entry.weight;
  if (entry.tags?.length) built.tags = entry.tags;
  if (entry.repeat_pass) built.repeat_pass = entry.repeat_pass;
  return built;
}

export function buildCase(entry: CaseEntry, index: number, locator: SuiteLocator): SuiteCase {
  const path = ['cases', index];
  const built: SuiteCase = {
    id: entry.id,
    prompt: entry.prompt,
    options: optionsOf(entry),
    assert: located(entry.assert, path, locator),
    location: locator.location(path),
  };
  return withExtras(built, entry);
}

function buildThreadOnly(entry: ThreadEntry, index: number, locator: SuiteLocator): SuiteThread {
  const path = ['threads', index];
  const turns = entry.turns.map((turn, t) => {
    const turnPath = [...path, 'turns', t];
    return {
      turn: t + 1,
      prompt: turn.prompt,
      options: optionsOf(turn),
      assert: located(turn.assert, turnPath, locator),
      location: locator.location(turnPath),
    };
  });
  const built: SuiteThread = { id: entry.id, turns, location: locator.location(path) };
  if (entry.name !== undefined) built.name = entry.name;
  return withExtras(built, entry);
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

export function buildThread(entry: ThreadEntry, index: number, locator: SuiteLocator, suiteThinkTime: string | number | undefined): SuiteThread {
  return withThinkTime(buildThreadOnly(entry, index, locator), entry.think_time ?? suiteThinkTime);
}

type Found = { path: PropertyKey[]; model: string };

function collect(found: Found[], models: readonly string[] | undefined, path: PropertyKey[]): void {
  models?.forEach((model, index) => found.push({ path: [...path, index], model }));
}

function judges(found: Found[], specs: readonly CheckSpec[] | undefined, path: PropertyKey[]): void {
  specs?.forEach((spec, index) => {
    const model = typeof spec.value === 'object' && !Array.isArray(spec.value) ? (spec.value as { model?: unknown }).model : undefined;
    if (typeof model === 'string') found.push({ path: [...path, 'assert', index], model });
  });
}

function warningsOf(found: Found[], locator: SuiteLocator): string[] {
  return found.filter(({ model }) => isUnknownModel(model)).map(({ path, model }) => locator.warning(path, unknownModelWarning(model)));
}

/** Unknown model names are warnings: model names change faster than this tool. These are one case's. */
export function caseModelWarnings(entry: CaseEntry, index: number, locator: SuiteLocator): string[] {
  const found: Found[] = [];
  collect(found, entry.models, ['cases', index, 'models']);
  judges(found, entry.assert, ['cases', index]);
  return warningsOf(found, locator);
}

export function threadModelWarnings(entry: ThreadEntry, index: number, locator: SuiteLocator): string[] {
  const found: Found[] = [];
  collect(found, entry.models, ['threads', index, 'models']);
  entry.turns.forEach((turn, t) => judges(found, turn.assert, ['threads', index, 'turns', t]));
  return warningsOf(found, locator);
}

/** `min_kappa` and `labels` go together: a bar with nothing to measure against (or labels with no bar) is refused, not ignored. */
function calibrationOf(c: { min_kappa?: number | undefined; min_labels?: number | undefined; labels?: string | undefined }, location: SourceLocation): ParsedSuite['grader_calibration'] {
  if (c.min_kappa === undefined && c.labels === undefined && c.min_labels === undefined) return undefined;
  if (c.min_kappa === undefined || c.labels === undefined) {
    throw new InputError(`grader: ${c.labels === undefined ? 'min_kappa needs labels: FILE or RUN_DIR (people\'s verdicts to measure the grader against)' : 'labels needs min_kappa (the agreement the grader must reach to gate)'}`, { ...location, field: c.labels === undefined ? 'grader.labels' : 'grader.min_kappa' });
  }
  return { min_kappa: c.min_kappa, ...(c.min_labels !== undefined ? { min_labels: c.min_labels } : {}), labels: c.labels, location };
}

function pickDefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function thresholdsOf(file: SuiteFile): Pick<ParsedSuite, 'thresholds' | 'threshold_aborts'> {
  const { expressions, aborts } = splitThresholdEntries(file.thresholds ?? {});
  return { thresholds: expressions, ...(aborts.length > 0 ? { threshold_aborts: aborts } : {}) };
}

/** The built items of a suite, with what they add to the suite (warnings, tags), in file order. */
export interface BuiltItems {
  cases: SuiteCase[];
  threads: SuiteThread[];
  warnings: string[];
  tags: Set<string>;
  /** `- file://…` entries, in file order: the loader puts the items they name in their place. */
  includes?: SuiteInclude[];
}

/** Builds every item of a whole validated file (the streamed reading builds them as it parses). */
export function buildItems(file: SuiteFile, locator: SuiteLocator): BuiltItems {
  const items: BuiltItems = { cases: [], threads: [], warnings: [], tags: new Set() };
  const include = (key: 'cases' | 'threads', entry: string, index: number, after: number): void => {
    (items.includes ??= []).push({ key, entry, after, location: locator.location([key, index]) });
  };
  (file.cases ?? []).forEach((entry, index) => {
    if (typeof entry === 'string') return include('cases', entry, index, items.cases.length);
    items.cases.push(buildCase(entry, index, locator));
    items.warnings.push(...caseModelWarnings(entry, index, locator));
  });
  (file.threads ?? []).forEach((entry, index) => {
    if (typeof entry === 'string') return include('threads', entry, index, items.threads.length);
    items.threads.push(buildThread(entry, index, locator, file.think_time));
    items.warnings.push(...threadModelWarnings(entry, index, locator));
  });
  for (const entry of [...(file.cases ?? []), ...(file.threads ?? [])]) if (typeof entry !== 'string') for (const tag of entry.tags ?? []) items.tags.add(tag);
  return items;
}

/** The suite from its top-level keys (`file`; its cases and threads are not read) and its built items. */
export function buildSuite(file: SuiteFile, locator: SuiteLocator, items: BuiltItems): ParsedSuite {
  const topWarnings: Found[] = [];
  collect(topWarnings, file.models, ['models']);
  const suite: ParsedSuite = {
    target: pickDefined(file.target ?? {}),
    models: file.models ?? [],
    defaults: pickOptions(file.defaults ?? {}),
    cases: items.cases,
    threads: items.threads,
    ...thresholdsOf(file),
    warnings: [...warningsOf(topWarnings, locator), ...items.warnings],
  };
  if (items.tags.size > 0) suite.tags = [...items.tags];
  if (items.includes) suite.includes = items.includes;
  if (file.repeat_pass) suite.repeat_pass = file.repeat_pass;
  if (file.name !== undefined) suite.name = file.name;
  if (file.workspace !== undefined) suite.workspace = file.workspace;
  if (file.load) suite.load = buildLoad(file.load, locator.location(['load']));
  if (file.grader) {
    const location = locator.location(['grader']);
    const { min_kappa, min_labels, labels, ...who } = file.grader;
    suite.grader = 'openai' in who
      ? { kind: 'openai', base_url: who.openai.base_url, model: who.openai.model, location }
      : { kind: 'chat', ...pickDefined(who), location };
    const calibration = calibrationOf({ min_kappa, min_labels, labels }, location);
    if (calibration) suite.grader_calibration = calibration;
  }
  if (file.knowledge) suite.knowledge = { patterns: file.knowledge, location: locator.location(['knowledge']) };
  return suite;
}
