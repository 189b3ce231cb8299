// promptfoo's JSON checks on an answer: is-json (the whole answer is JSON) and contains-json (a
// JSON object or array appears in it, as in a fenced code block), and their negations.
import type { CheckResult } from '../domain/sample.js';
import { excerpt } from './text.js';
import type { CheckHandler } from './types.js';
import { closingOf } from './brackets.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The first JSON object or array inside the text, or undefined. At most 200 starts are tried (bounded work on long answers). */
export function findJson(text: string): string | undefined {
  let tried = 0;
  for (let at = text.search(/[{[]/); at !== -1 && tried < 200; tried += 1) {
    const end = closingOf(text, at);
    if (end !== -1 && parses(text.slice(at, end + 1))) return text.slice(at, end + 1);
    const next = text.slice(at + 1).search(/[{[]/);
    at = next === -1 ? -1 : at + 1 + next;
  }
  return undefined;
}

function judge(type: CheckResult['type'], found: boolean, negate: boolean, what: string, text: string): CheckResult {
  const pass = negate ? !found : found;
  if (pass) return { type, pass, detail: found ? what : `not ${what}` };
  return { type, pass, detail: `expected ${negate ? 'not ' : ''}${what}; answer starts ${excerpt(text)}` };
}

export const isJsonCheck: CheckHandler<'is-json'> = (_spec, subject) => judge('is-json', parses(subject.text.trim()), false, 'the answer is JSON', subject.text);
export const notIsJsonCheck: CheckHandler<'not-is-json'> = (_spec, subject) => judge('not-is-json', parses(subject.text.trim()), true, 'the answer is JSON', subject.text);
export const containsJsonCheck: CheckHandler<'contains-json'> = (_spec, subject) =>
  judge('contains-json', findJson(subject.text) !== undefined, false, 'the answer contains JSON', subject.text);
export const notContainsJsonCheck: CheckHandler<'not-contains-json'> = (_spec, subject) =>
  judge('not-contains-json', findJson(subject.text) !== undefined, true, 'the answer contains JSON', subject.text);
