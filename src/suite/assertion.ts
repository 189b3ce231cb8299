// Reads one assertion, in any of its written forms, into a CheckSpec (or says what is wrong).
import { z } from 'zod';
import { compileCheckRegex } from '../checks/regex.js';
import { CHECK_TYPES, type CheckSpec, type CheckType } from '../domain/suite.js';
import { nonEmptyText, optional, strictMap } from './primitives.js';
import { didYouMean, editDistance, type PathIssue } from './suite-error.js';
import { zodPathIssues } from './zod-issues.js';

/** promptfoo's names for the same checks, so its suites read unchanged. */
export const CHECK_ALIASES: Readonly<Record<string, CheckType>> = { 'llm-rubric': 'judge', latency: 'max-latency-ms' };

/**
 * `similar` without `min`: on the measure of checks/similarity.ts, rewordings of a golden answer
 * that keep its facts scored 0.63–0.87 and the same answer with a wrong number 0.44.
 */
export const DEFAULT_SIMILAR_MIN = 0.6;

export type AssertionParse = { spec: CheckSpec } | { issues: PathIssue[] };

export function resolveCheckType(name: string): CheckType | undefined {
  const lower = name.trim().toLowerCase();
  return (CHECK_TYPES as readonly string[]).includes(lower) ? (lower as CheckType) : CHECK_ALIASES[lower];
}

function unknownTypeMessage(name: string): string {
  return `unknown check type "${name}"${didYouMean(name, CHECK_TYPES)}; check types: ${CHECK_TYPES.join(', ')}`;
}

const textValue = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), nonEmptyText);

const regexValue = textValue.superRefine((source, ctx) => {
  try {
    compileCheckRegex(source);
  } catch (error) {
    // V8 says "Invalid regular expression: /(x/: Unterminated group"; keep the useful tail once.
    const reason = (error as Error).message.replace(/^Invalid regular expression: /, '');
    ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${reason}` });
  }
});

function limitValue(unit: string) {
  const message = `must be a number of ${unit} ≥ 0`;
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    z.number({ error: message }).finite(message).nonnegative(message),
  );
}

const similarValue = z.preprocess(
  (v) => (typeof v === 'string' ? { to: v } : v),
  strictMap('a similar check', {
    to: nonEmptyText,
    min: optional(z.number({ error: 'must be a number between 0 and 1' }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1')),
  }),
);

/** promptfoo's list value: a YAML list, or one string of comma-separated values (as a CSV cell writes it). */
const listValue = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((part) => part.trim()).filter((part) => part !== '') : v),
  z.array(textValue, { error: 'must be a list of texts, or texts separated by commas' }).min(1, 'must name at least one text'),
);

const optionalId = optional(z.string().trim().min(1, 'must not be empty'));
/** `votes: N`: the grader is asked N times and the majority decides; odd, so there is no tie. */
const votesValue = optional(
  z.number({ error: 'must be an odd whole number from 1 to 9' }).int('must be an odd whole number from 1 to 9').min(1).max(9, 'must be an odd whole number from 1 to 9')
    .refine((n) => n % 2 === 1, 'must be odd (a majority needs no tie)'),
);
const graderKeys = { chat_id: optionalId, board_id: optionalId, model: optionalId, votes: votesValue };
const judgeValue = z.preprocess(
  (v) => (typeof v === 'string' ? { rubric: v } : v),
  strictMap('a judge check', { rubric: nonEmptyText, ...graderKeys }),
);
/** factuality, context-recall: the reference answer, as text or `{ reference, … }`. */
const referenceValue = z.preprocess(
  (v) => (typeof v === 'string' || typeof v === 'number' ? { reference: String(v) } : v),
  strictMap('a model-graded check', { reference: nonEmptyText, ...graderKeys }),
);
/** answer-relevance, context-faithfulness: nothing to give (`true`, an empty cell) or the grader keys. */
const noReferenceValue = z.preprocess(
  (v) => (v === true || v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? {} : v),
  strictMap('a model-graded check', graderKeys),
);

const VALUE_SCHEMAS: Record<CheckType, z.ZodType> = {
  contains: textValue,
  icontains: textValue,
  'not-contains': textValue,
  regex: regexValue,
  equals: textValue,
  'starts-with': textValue,
  'max-ttfc-ms': limitValue('milliseconds'),
  'max-latency-ms': limitValue('milliseconds'),
  'max-credits': limitValue('credits'),
  similar: similarValue,
  judge: judgeValue,
  'not-icontains': textValue,
  'not-equals': textValue,
  'not-starts-with': textValue,
  'not-regex': regexValue,
  'contains-any': listValue,
  'contains-all': listValue,
  'icontains-any': listValue,
  'icontains-all': listValue,
  factuality: referenceValue,
  'answer-relevance': noReferenceValue,
  'context-faithfulness': noReferenceValue,
  'context-recall': referenceValue,
};

function parseValue(type: CheckType, value: unknown, path: readonly PropertyKey[]): AssertionParse {
  const parsed = VALUE_SCHEMAS[type].safeParse(value, { reportInput: true });
  if (!parsed.success) return { issues: zodPathIssues(parsed.error, path) };
  if (type === 'similar') {
    const similar = parsed.data as { to: string; min?: number };
    return { spec: { type, value: { to: similar.to, min: similar.min ?? DEFAULT_SIMILAR_MIN } } };
  }
  return { spec: { type, value: withoutUndefined(parsed.data) } as CheckSpec };
}

/** Optional keys left out rather than present as undefined (results and plans compare values). */
function withoutUndefined(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

const LONG_FORM_KEYS = ['type', 'value', 'threshold'];

/** promptfoo's long form: `{type: contains, value: "30 days"}`, `{type: similar, value: …, threshold: 0.8}`. */
function parseLongForm(raw: Record<string, unknown>): AssertionParse {
  const extra = Object.keys(raw).find((key) => !LONG_FORM_KEYS.includes(key));
  if (extra !== undefined) {
    return { issues: [{ path: [], key: extra, message: `unknown key "${extra}" in an assertion; the long form has type, value and (for similar) threshold` }] };
  }
  const name = raw.type;
  if (typeof name !== 'string') return { issues: [{ path: ['type'], message: `must be a check type: ${CHECK_TYPES.join(', ')}` }] };
  const type = resolveCheckType(name);
  if (type === undefined) return { issues: [{ path: ['type'], message: unknownTypeMessage(name) }] };
  if (raw.threshold === undefined || raw.threshold === null) return parseValue(type, raw.value, ['value']);
  if (type !== 'similar') return { issues: [{ path: ['threshold'], message: 'threshold applies only to similar checks' }] };
  const value = typeof raw.value === 'string' ? { to: raw.value, min: raw.threshold } : raw.value;
  return parseValue(type, value, ['value']);
}

/** `{contains: "30 days"}` (one key: the check type) or the long form with `type`. */
export function parseAssertion(raw: unknown): AssertionParse {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { issues: [{ path: [], message: 'an assertion is a one-key map such as {contains: "30 days"}, or {type: contains, value: "30 days"}' }] };
  }
  const record = raw as Record<string, unknown>;
  if (Object.hasOwn(record, 'type')) return parseLongForm(record);
  const keys = Object.keys(record);
  const [name] = keys;
  if (name === undefined || keys.length > 1) {
    return { issues: [{ path: [], message: `an assertion has exactly one key, its check type; found ${keys.length === 0 ? 'none' : keys.join(', ')}` }] };
  }
  const type = resolveCheckType(name);
  if (type === undefined) return { issues: [{ path: [], message: unknownTypeMessage(name) }] };
  return parseValue(type, record[name], [name]);
}

/** In a suite schema: the parsed spec, or the problems at their paths inside the assertion. */
export const assertionSchema = z.unknown().transform((raw, ctx): CheckSpec => {
  const parsed = parseAssertion(raw);
  if ('spec' in parsed) return parsed.spec;
  for (const issue of parsed.issues) {
    // An unknown key travels in params so the locator can point at the key, not its value.
    ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path], ...(issue.key === undefined ? {} : { params: { key: issue.key } }) });
  }
  return z.NEVER;
});

const CELL = /^\s*([A-Za-z][\w-]*)\s*(?:\(([^)]*)\))?\s*:([\s\S]*)$/;

const CHECK_NAMES: readonly string[] = [...CHECK_TYPES, ...Object.keys(CHECK_ALIASES)];

/**
 * The check type a mistyped prefix was probably meant to be: within one edit of a name (two for
 * names of 6+ letters, whole-name distance only), so `contans:` or `not-icontain:` is caught while
 * an ordinary label such as `Answer:` or `Note:` is not near any check type and stays text.
 */
export function nearCheckType(name: string): string | undefined {
  const lower = name.toLowerCase();
  const limit = lower.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of CHECK_NAMES) {
    const distance = editDistance(lower, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * A promptfoo-style CSV cell: `contains: 30 days`, `max-latency-ms: 5000`, `similar(0.8): …`.
 * A prefix is a check type when it is a known one; one a typo away from a known one is an error
 * (it would otherwise become a silent `equals` check); any other cell, `Answer: yes` included,
 * means `equals` the whole cell, as promptfoo reads it. `equals: …` always escapes.
 */
export function parseAssertionCell(cell: string): AssertionParse {
  const match = CELL.exec(cell);
  const name = match?.[1] ?? '';
  const type = match ? resolveCheckType(name) : undefined;
  if (match && type === undefined) {
    const near = nearCheckType(name);
    if (near !== undefined) return { issues: [{ path: [], message: `unknown check type "${name}" (did you mean "${near}"?); write "equals: ${cell.trim()}" if the cell is the expected answer itself` }] };
  }
  if (!match || type === undefined) return parseValue('equals', cell.trim(), []);
  const threshold = match[2] === undefined ? undefined : Number(match[2].trim() === '' ? Number.NaN : match[2]);
  const parsed = parseLongForm({ type, value: (match[3] ?? '').trim(), threshold });
  if ('spec' in parsed) return parsed;
  return { issues: parsed.issues.map((issue) => ({ path: [], message: `${type}: ${issue.message}` })) };
}
