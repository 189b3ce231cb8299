// A promptfooconfig.yaml read as a kbbench suite: prompts × tests (× providers as models), with
// defaultTest applied to every test, `{{var}}` rendered, and kbbench's suite-level keys (grader,
// thresholds, target, defaults, load, …) allowed beside promptfoo's. See docs/promptfoo.md.
import { basename, dirname, resolve } from 'node:path';
import type { SuiteCase, SuiteThread } from '../../domain/suite.js';
import type { ParsedSuite } from '../parsed-suite.js';
import { isUnknownModel, thresholdIssues, unknownModelWarning } from '../semantic.js';
import { SuiteError } from '../suite-error.js';
import { buildSuite } from '../yaml-build.js';
import { suiteFileSchema } from '../yaml-schema.js';
import { parseYamlDocument } from '../yaml.js';
import { zodPathIssues } from '../zod-issues.js';
import { makeItems } from './cases.js';
import { readPrompts } from './prompts.js';
import { readProviders } from './providers.js';
import { Problems, type PromptfooTest } from './test-model.js';
import { readTestList, readTestMap, type TestSource } from './tests.js';
import { KEY_HINTS } from './vocabulary.js';

/** promptfoo's keys kbbench reads. */
const PROMPTFOO_KEYS = ['description', 'prompts', 'providers', 'targets', 'tests', 'defaultTest', 'assertionTemplates'];
/** kbbench's suite-level keys, allowed in a promptfoo config (a grader for llm-rubric, thresholds, …). */
const KBBENCH_KEYS = ['name', 'target', 'defaults', 'thresholds', 'workspace', 'repeat_pass', 'load', 'grader', 'knowledge'];
/** promptfoo's keys that change nothing kbbench measures: read, and said to be left aside. */
const NOTED_KEYS: Readonly<Record<string, string>> = {
  outputPath: 'kbbench writes its run directory (--out); outputPath is not written',
  sharing: 'kbbench shares nothing; sharing is not used',
  writeLatestResults: 'kbbench writes every run to its own directory',
  tags: 'the config\'s tags are not read; metadata of a test becomes its tags',
  metadata: 'the config\'s metadata is not read; metadata of a test becomes its tags',
};

/** A promptfoo config by its keys: prompts, providers or tests, and none of a kbbench suite's items. */
export function isPromptfooConfig(raw: unknown): raw is Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const keys = Object.keys(raw);
  return !keys.includes('cases') && !keys.includes('threads') && ['prompts', 'providers', 'tests', 'targets'].some((key) => keys.includes(key));
}

/** A cheap look at the text first, so a kbbench suite is not parsed twice. */
export function mayBePromptfooConfig(text: string): boolean {
  return /^(?:prompts|providers|tests|targets)\s*:/m.test(text);
}

function withDefaults(test: PromptfooTest, defaults: PromptfooTest | undefined): PromptfooTest {
  if (defaults === undefined) return test;
  const merged: PromptfooTest = { ...test, vars: { ...defaults.vars, ...test.vars }, asserts: [...defaults.asserts, ...test.asserts], tags: [...defaults.tags, ...test.tags] };
  for (const key of ['threshold', 'prefix', 'suffix', 'conversation'] as const) {
    if (merged[key] === undefined && defaults[key] !== undefined) (merged as unknown as Record<string, unknown>)[key] = defaults[key];
  }
  return merged;
}

function keyProblems(raw: Record<string, unknown>, source: TestSource, problems: Problems, warnings: string[]): void {
  for (const key of Object.keys(raw)) {
    if (PROMPTFOO_KEYS.includes(key) || KBBENCH_KEYS.includes(key)) continue;
    const noted = NOTED_KEYS[key];
    if (noted !== undefined) warnings.push(source.locator.warning([key], noted));
    else problems.add(`"${key}" is not read by kbbench in a promptfoo config${KEY_HINTS[key] ? ` (${KEY_HINTS[key]})` : ''}; keys read: ${[...PROMPTFOO_KEYS, ...KBBENCH_KEYS].join(', ')} (see docs/promptfoo.md)`, { ...source.locator.position([], key), file: source.file, field: key });
  }
}

function duplicateIds(items: { cases: SuiteCase[]; threads: SuiteThread[] }, problems: Problems): void {
  const seen = new Map<string, SuiteCase | SuiteThread>();
  for (const item of [...items.cases, ...items.threads]) {
    const first = seen.get(item.id);
    if (first) problems.add(`two requests get id "${item.id}" (first from line ${first.location.line ?? '?'}); give the tests different descriptions`, { ...item.location, field: 'description' });
    else seen.set(item.id, item);
  }
}

/** The kbbench keys of the config, validated by the suite schema (their paths are the config's). */
function kbbenchPart(raw: Record<string, unknown>, source: TestSource, problems: Problems) {
  const part = Object.fromEntries(Object.entries(raw).filter(([key]) => KBBENCH_KEYS.includes(key)));
  const parsed = suiteFileSchema.safeParse(part, { reportInput: true });
  const issues = [...(parsed.success ? [] : zodPathIssues(parsed.error)), ...thresholdIssues(part)];
  for (const issue of issues) problems.issues.push(source.locator.error(issue));
  return parsed.success ? parsed.data : undefined;
}

/**
 * Reads a promptfoo config's text into a suite (every problem, with file and line, in one
 * SuiteError); undefined when the text is not a promptfoo config (its keys say which).
 */
export function parsePromptfooConfig(text: string, file: string): ParsedSuite | undefined {
  const { raw, locator } = parseYamlDocument(text, file);
  if (!isPromptfooConfig(raw)) return undefined;
  const source: TestSource = { locator, root: raw, file };
  const problems = new Problems();
  const warnings: string[] = [];
  keyProblems(raw, source, problems, warnings);
  const prompts = readPrompts(raw.prompts, file, locator, problems);
  const models = readProviders(raw.providers ?? raw.targets, locator, problems, warnings);
  const defaults = raw.defaultTest === undefined ? undefined : readTestMap(raw.defaultTest, ['defaultTest'], source, problems);
  const tests = readTestList(raw.tests, ['tests'], source, problems).map((test) => withDefaults(test, defaults));
  if (tests.length === 0 && problems.issues.length === 0) problems.add('the config has no tests; add a tests: list (or tests: file://tests.csv)', { ...locator.location([]), field: 'tests' });
  const items = makeItems(prompts, tests, problems);
  duplicateIds(items, problems);
  const kbbench = kbbenchPart(raw, source, problems);
  if (problems.issues.length > 0 || kbbench === undefined) throw new SuiteError(problems.issues);
  const tags = new Set([...items.cases, ...items.threads].flatMap((item) => item.tags ?? []));
  const suite = buildSuite(kbbench, locator, { ...items, warnings, tags });
  suite.models = models;
  suite.warnings.push(...models.filter(isUnknownModel).map((model) => locator.warning(['providers'], unknownModelWarning(model))));
  suite.name = kbbench.name ?? (typeof raw.description === 'string' && raw.description.trim() !== '' ? raw.description.trim() : basename(dirname(resolve(file))));
  return suite;
}
