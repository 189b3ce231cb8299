// promptfoo's multiplication: each prompt × each test (× each value of a list var) is a case, its
// prompt and check values rendered from the test's vars. Tests sharing a conversationId are the
// turns of one thread. Ids are derived from the test's position and description, so they stay put.
import type { CheckSpec, SuiteCase, SuiteThread, SuiteTurn } from '../../domain/suite.js';
import { parseAssertion, parseAssertionCell } from '../assertion.js';
import type { PromptfooPrompt } from './prompts.js';
import { renderDeep, renderTemplate, TemplateError, type TemplateVars } from './template.js';
import type { Problems, PromptfooTest, RawAssert } from './test-model.js';

const NO_OPTIONS = Object.freeze({});

/** `Check if output is JSON` → `check-if-output-is-json` (at most 40 characters). */
function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
}

/** `t3-check-if-output-is-json.p1`: the test's place (1-based) and description, the prompt's place. */
export function caseIdOf(testIndex: number, description: string | undefined, promptIndex: number, variant?: number): string {
  const named = description === undefined || slug(description) === '' ? '' : `-${slug(description)}`;
  return `t${testIndex + 1}${named}${variant === undefined ? '' : `.v${variant + 1}`}.p${promptIndex + 1}`;
}

/** promptfoo multiplies a test by each value of a list var: every combination, in order. */
export function expandVars(vars: Record<string, unknown>): Record<string, unknown>[] {
  let combos: Record<string, unknown>[] = [{}];
  for (const [name, value] of Object.entries(vars)) {
    const values = Array.isArray(value) ? value : [value];
    combos = combos.flatMap((combo) => values.map((v) => ({ ...combo, [name]: v })));
  }
  return combos;
}

function render(text: string, vars: TemplateVars, where: { file: string; line?: number; field: string }, problems: Problems): string | undefined {
  try {
    return renderTemplate(text, vars);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    problems.add(error.message, where);
    return undefined;
  }
}

function checkOf(entry: RawAssert, vars: TemplateVars, problems: Problems): CheckSpec | undefined {
  const where = { ...entry.location, field: entry.field };
  let parsed;
  try {
    parsed = entry.kind === 'cell' ? parseAssertionCell(renderTemplate(entry.text, vars)) : parseAssertion(renderDeep(entry.raw, vars));
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    problems.add(error.message, where);
    return undefined;
  }
  if ('spec' in parsed) return { ...parsed.spec, location: entry.location };
  for (const issue of parsed.issues) problems.add(issue.message, { ...where, field: [entry.field, ...issue.path.map(String), ...(issue.key ? [issue.key] : [])].join('.') });
  return undefined;
}

/** One request of a test under one prompt: its message and checks, or undefined after a problem. */
function requestOf(prompt: PromptfooPrompt, test: PromptfooTest, vars: Record<string, unknown>, problems: Problems): { prompt: string; assert: CheckSpec[] } | undefined {
  if (prompt.text.includes('_conversation')) {
    problems.add('the prompt uses _conversation: the service keeps the conversation itself; give each test of the thread metadata.conversationId and write each turn\'s message alone', { ...prompt.location, field: 'prompts' });
    return undefined;
  }
  // A template error is the prompt's: named where the prompt is written, once for all tests.
  const text = render(prompt.text, vars, { ...prompt.location, field: 'prompt' }, problems);
  const assert = test.asserts.map((entry) => checkOf(entry, vars, problems));
  if (text === undefined || assert.some((spec) => spec === undefined)) return undefined;
  return { prompt: `${test.prefix ?? ''}${text}${test.suffix ?? ''}`, assert: assert as CheckSpec[] };
}

export interface MadeItems {
  cases: SuiteCase[];
  threads: SuiteThread[];
}

/** The cases and threads of prompts × tests, in promptfoo's order (each test, then each prompt). */
export function makeItems(prompts: readonly PromptfooPrompt[], tests: readonly PromptfooTest[], problems: Problems): MadeItems {
  const items: MadeItems = { cases: [], threads: [] };
  const threads = new Map<string, SuiteThread>();
  tests.forEach((test, testIndex) => {
    const combos = expandVars(test.vars);
    // A CSV run alone gives each row its own prompt (a template of the row's variables).
    const own = test.prompt === undefined ? prompts : [{ text: test.prompt, location: test.location }];
    combos.forEach((vars, variant) => {
      own.forEach((prompt, promptIndex) => {
        const made = requestOf(prompt, test, vars, problems);
        if (made === undefined) return;
        if (test.conversation !== undefined) return addTurn(threads, items, test, made, promptIndex, prompts.length);
        const built: SuiteCase = { id: test.id ?? caseIdOf(testIndex, test.description, promptIndex, combos.length > 1 ? variant : undefined), prompt: made.prompt, options: NO_OPTIONS, assert: made.assert, location: test.location };
        if (test.description !== undefined) built.description = test.description;
        if (test.tags.length > 0) built.tags = [...new Set(test.tags)];
        if (test.threshold !== undefined) built.score_threshold = test.threshold;
        items.cases.push(built);
      });
    });
  });
  return items;
}

function addTurn(threads: Map<string, SuiteThread>, items: MadeItems, test: PromptfooTest, made: { prompt: string; assert: CheckSpec[] }, promptIndex: number, prompts: number): void {
  const id = `${slug(test.conversation!) || 'conversation'}${prompts > 1 ? `.p${promptIndex + 1}` : ''}`;
  let thread = threads.get(id);
  if (thread === undefined) {
    thread = { id, name: test.conversation!, turns: [], location: test.location };
    threads.set(id, thread);
    items.threads.push(thread);
  }
  const turn: SuiteTurn = { turn: thread.turns.length + 1, prompt: made.prompt, options: NO_OPTIONS, assert: made.assert, location: test.location };
  thread.turns.push(turn);
  if (test.tags.length > 0) thread.tags = [...new Set([...(thread.tags ?? []), ...test.tags])];
}
