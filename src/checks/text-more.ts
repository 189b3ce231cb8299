// promptfoo's negated and list checks (not-icontains, contains-any, …), built on the text checks.
import type { CheckResult } from '../domain/sample.js';
import type { CheckType } from '../domain/suite.js';
import { answerNear, equalsCheck, excerpt, icontainsCheck, normalizeText, regexCheck, startsWithCheck } from './text.js';
import type { CheckHandler, CheckSubject, SpecOf } from './types.js';

type StringCheck = 'icontains' | 'equals' | 'starts-with' | 'regex';

/**
 * `not-X` passes when X fails. A check that could not be judged (a regex over its time limit, an
 * invalid pattern) is not a pass of its negation: it stays a failure with X's own detail.
 */
function negated<K extends StringCheck>(type: CheckType, kind: K, positive: CheckHandler<K>, what: (value: string) => string): CheckHandler {
  return (spec, subject, ports) => {
    const value = spec.value as string;
    const inner = positive({ type: kind, value } as unknown as SpecOf<K>, subject, ports) as CheckResult;
    if (/^(could not be judged|invalid regular expression)/.test(inner.detail)) return { type, pass: false, detail: inner.detail };
    if (!inner.pass) return { type, pass: true, detail: `does not ${what(value)}` };
    return { type, pass: false, detail: `expected not to ${what(value)}; answer starts ${excerpt(subject.text)}` };
  };
}

export const notIcontainsCheck = negated('not-icontains', 'icontains', icontainsCheck, (v) => `contain "${v}" (ignoring case)`) as CheckHandler<'not-icontains'>;
export const notEqualsCheck = negated('not-equals', 'equals', equalsCheck, (v) => `equal "${v}"`) as CheckHandler<'not-equals'>;
export const notStartsWithCheck = negated('not-starts-with', 'starts-with', startsWithCheck, (v) => `start with "${v}"`) as CheckHandler<'not-starts-with'>;
export const notRegexCheck = negated('not-regex', 'regex', regexCheck, (v) => `match /${v}/`) as CheckHandler<'not-regex'>;

type ListType = 'contains-any' | 'contains-all' | 'icontains-any' | 'icontains-all';

function listCheck(type: ListType, ignoreCase: boolean, all: boolean): CheckHandler<ListType> {
  const fold = (text: string): string => (ignoreCase ? normalizeText(text).toLowerCase() : normalizeText(text));
  return (spec, subject: CheckSubject): CheckResult => {
    const text = fold(subject.text);
    const found = spec.value.filter((value) => text.includes(fold(value)));
    const missing = spec.value.filter((value) => !text.includes(fold(value)));
    const quoted = (values: readonly string[]): string => values.map((v) => `"${v}"`).join(', ');
    const how = ignoreCase ? ' (ignoring case)' : '';
    if (all) {
      return missing.length === 0
        ? { type, pass: true, detail: `contains all of ${quoted(spec.value)}${how}` }
        : { type, pass: false, detail: `expected to contain all of ${quoted(spec.value)}${how}; missing ${quoted(missing)}; ${answerNear(subject.text, missing[0]!)}` };
    }
    return found.length > 0
      ? { type, pass: true, detail: `contains ${quoted(found)}${how}` }
      : { type, pass: false, detail: `expected to contain any of ${quoted(spec.value)}${how}; ${answerNear(subject.text, spec.value[0] ?? '')}` };
  };
}

export const containsAnyCheck = listCheck('contains-any', false, false) as CheckHandler<'contains-any'>;
export const containsAllCheck = listCheck('contains-all', false, true) as CheckHandler<'contains-all'>;
export const icontainsAnyCheck = listCheck('icontains-any', true, false) as CheckHandler<'icontains-any'>;
export const icontainsAllCheck = listCheck('icontains-all', true, true) as CheckHandler<'icontains-all'>;
