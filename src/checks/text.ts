// Checks on the answer's text: contains, icontains, not-contains, equals, starts-with, regex.
import type { CheckResult } from '../domain/sample.js';
import { nearestPart } from './nearest.js';
import { compileCheckRegex, execWithTimeLimit, RegexTimeoutError } from './regex.js';
import type { CheckHandler } from './types.js';

type TextType = 'contains' | 'icontains' | 'not-contains' | 'equals' | 'starts-with' | 'regex';

/**
 * Compares as a reader would: curly quotes read as straight ones and any run of whitespace as
 * one space, so `not-contains: I don't know` still catches "I don’t know" and a line break
 * inside "30\ndays" still counts as "30 days". Nothing else is folded.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/\s+/g, ' ');
}

/** A one-line excerpt for a detail: `"Refunds are accepted within…"`. */
export function excerpt(text: string, from = 0, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const start = Math.max(0, from);
  const body = flat.slice(start, start + max);
  return `"${start > 0 ? '…' : ''}${body}${start + max < flat.length ? '…' : ''}"`;
}

function answerStarts(text: string): string {
  return text.trim() === '' ? 'the answer is empty' : `answer starts ${excerpt(text)}`;
}

/** The answer's part nearest to what was expected (the sentence with "€350" when "€300" was), else its start. */
export function answerNear(text: string, expected: string): string {
  const near = text.trim() === '' ? undefined : nearestPart(text, expected);
  return near === undefined ? answerStarts(text) : `nearest part ${near}`;
}

function result(type: TextType, pass: boolean, detail: string): CheckResult {
  return { type, pass, detail };
}

export const containsCheck: CheckHandler<'contains'> = (spec, subject) => {
  const found = normalizeText(subject.text).includes(normalizeText(spec.value));
  const detail = found ? `contains "${spec.value}"` : `expected to contain "${spec.value}"; ${answerNear(subject.text, spec.value)}`;
  return result('contains', found, detail);
};

export const icontainsCheck: CheckHandler<'icontains'> = (spec, subject) => {
  const found = normalizeText(subject.text).toLowerCase().includes(normalizeText(spec.value).toLowerCase());
  const detail = found
    ? `contains "${spec.value}" (ignoring case)`
    : `expected to contain "${spec.value}" (ignoring case); ${answerNear(subject.text, spec.value)}`;
  return result('icontains', found, detail);
};

export const notContainsCheck: CheckHandler<'not-contains'> = (spec, subject) => {
  const text = normalizeText(subject.text);
  const at = text.indexOf(normalizeText(spec.value));
  if (at < 0) return result('not-contains', true, `does not contain "${spec.value}"`);
  return result('not-contains', false, `expected not to contain "${spec.value}"; found at ${excerpt(text, at - 20)}`);
};

export const equalsCheck: CheckHandler<'equals'> = (spec, subject) => {
  const pass = normalizeText(subject.text).trim() === normalizeText(spec.value).trim();
  const detail = pass ? `equals "${spec.value}"` : `expected to equal "${spec.value}"; ${answerNear(subject.text, spec.value)}`;
  return result('equals', pass, detail);
};

export const startsWithCheck: CheckHandler<'starts-with'> = (spec, subject) => {
  const pass = normalizeText(subject.text).trimStart().startsWith(normalizeText(spec.value));
  const detail = pass ? `starts with "${spec.value}"` : `expected to start with "${spec.value}"; ${answerStarts(subject.text)}`;
  return result('starts-with', pass, detail);
};

export const regexCheck: CheckHandler<'regex'> = (spec, subject) => {
  let pattern: RegExp;
  try {
    pattern = compileCheckRegex(spec.value);
  } catch (error) {
    return result('regex', false, `invalid regular expression ${spec.value}: ${(error as Error).message}`);
  }
  let match: RegExpExecArray | null;
  try {
    match = execWithTimeLimit(pattern, subject.text);
  } catch (error) {
    if (error instanceof RegexTimeoutError) return result('regex', false, `could not be judged: ${error.message}`);
    throw error;
  }
  if (match) return result('regex', true, `matches ${pattern}: ${excerpt(match[0], 0, 40)}`);
  return result('regex', false, `expected to match ${pattern}; ${answerStarts(subject.text)}`);
};
