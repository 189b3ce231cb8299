// Reads one assertion, in any of its written forms, into a CheckSpec (or says what is wrong).
import { z } from 'zod';
import { compileCheckRegex } from '../checks/regex.js';
import { CHECK_TYPES, type CheckSpec, type CheckType } from '../domain/suite.js';
import { DEFAULT_LEVENSHTEIN_MAX } from '../checks/levenshtein.js';
import { nonEmptyText, optional, strictMap } from './primitives.js';
import { CHECK_HINTS, KEY_HINTS, refusedCheck } from './promptfoo/vocabulary.js';
import { didYouMean, editDistance, type PathIssue } from './suite-error.js';
import { zodPathIssues } from './zod-issues.js';

/** promptfoo's names for the same checks, so its suites read unchanged. */
export const CHECK_ALIASES: Readonly<Record<string, CheckType>> = {
  'llm-rubric': 'judge',
  latency: 'max-latency-ms',
  // promptfoo's cost is the answer's spend against a limit: the service's credits_used.
  cost: 'max-credits',
};

/** Aliases whose promptfoo form gives the limit as `threshold` (`{type: latency, threshold: 5000}`). */
const THRESHOLD_IS_VALUE: ReadonlySet<CheckType> = new Set(['max-latency-ms', 'max-credits', 'max-ttfc-ms']);

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
  const refused = refusedCheck(name);
  if (refused !== undefined) return `check type "${name}" is not run by kbbench: ${refused}`;
  const hint = CHECK_HINTS[name.trim().toLowerCase()];
  const guess = hint === undefined ? didYouMean(name, CHECK_TYPES) : ` (did you mean "${hint}"?)`;
  return `unknown check type "${name}"${guess}; check types: ${CHECK_TYPES.join(', ')}`;
}

/** is-json and contains-json take no value; a JSON Schema is refused (kbbench does not validate one). */
const noJsonValue = z.unknown().superRefine((v, ctx) => {
  if (v === undefined || v === null || v === true || (typeof v === 'string' && v.trim() === '')) return;
  ctx.addIssue({ code: 'custom', message: 'takes no value; a JSON Schema is not validated by kbbench (check fields with regex or contains instead)' });
}).transform(() => undefined);

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

/** `levenshtein`: the text, or `{ to, max }`; max defaults to promptfoo's 5. */
const levenshteinValue = z.preprocess(
  (v) => (typeof v === 'string' || typeof v === 'number' ? { to: String(v) } : v),
  strictMap('a levenshtein check', { to: nonEmptyText, max: optional(z.number({ error: 'must be a whole number of edits ≥ 0' }).int('must be a whole number of edits ≥ 0').nonnegative('must be a whole number of edits ≥ 0')) }),
).transform((v) => ({ to: v.to, max: v.max ?? DEFAULT_LEVENSHTEIN_MAX }));

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
  'is-json': noJsonValue,
  'not-is-json': noJsonValue,
  'contains-json': noJsonValue,
  'not-contains-json': noJsonValue,
  levenshtein: levenshteinValue,
  'not-levenshtein': levenshteinValue,
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

const LONG_FORM_KEYS = ['type', 'value', 'threshold', 'weight', 'metric'];

/** Where a long form's `threshold` goes: similar's min, levenshtein's max, or a limit's value. */
function withThreshold(type: CheckType, value: unknown, threshold: unknown): { value: unknown } | { issue: string } {
  if (type === 'similar') return { value: typeof value === 'string' ? { to: value, min: threshold } : value };
  if (type === 'levenshtein' || type === 'not-levenshtein') return { value: typeof value === 'string' ? { to: value, max: threshold } : value };
  if (THRESHOLD_IS_VALUE.has(type)) {
    if (value !== undefined && value !== null && value !== threshold) return { issue: `give the ${type} limit once, as threshold or as value` };
    return { value: threshold };
  }
  return { issue: `threshold applies to similar, levenshtein, cost (max-credits) and latency (max-latency-ms) checks, not ${type}` };
}

/** promptfoo's `weight` (≥ 0) and `metric` (a name), on any check. */
function scoringIssues(raw: Record<string, unknown>): PathIssue[] {
  const issues: PathIssue[] = [];
  if (raw.weight !== undefined && (typeof raw.weight !== 'number' || !Number.isFinite(raw.weight) || raw.weight < 0)) issues.push({ path: ['weight'], message: 'must be a number ≥ 0 (0 = reported, never failing)' });
  if (raw.metric !== undefined && (typeof raw.metric !== 'string' || raw.metric.trim() === '')) issues.push({ path: ['metric'], message: 'must be a name' });
  return issues;
}

function withScoring(parsed: AssertionParse, raw: Record<string, unknown>): AssertionParse {
  if (!('spec' in parsed)) return parsed;
  const issues = scoringIssues(raw);
  if (issues.length > 0) return { issues };
  const spec = parsed.spec;
  if (typeof raw.weight === 'number') spec.weight = raw.weight;
  if (typeof raw.metric === 'string') spec.metric = raw.metric.trim();
  return { spec };
}

/** promptfoo's long form: `{type: contains, value: "30 days"}`, `{type: similar, value: …, threshold: 0.8}`, with weight and metric. */
function parseLongForm(raw: Record<string, unknown>): AssertionParse {
  const extra = Object.keys(raw).find((key) => !LONG_FORM_KEYS.includes(key));
  if (extra !== undefined) {
    const hint = KEY_HINTS[extra];
    const why = hint === undefined ? 'the long form has type, value, threshold, weight and metric' : hint;
    return { issues: [{ path: [], key: extra, message: `unknown key "${extra}" in an assertion; ${why}` }] };
  }
  const name = raw.type;
  if (typeof name !== 'string') return { issues: [{ path: ['type'], message: `must be a check type: ${CHECK_TYPES.join(', ')}` }] };
  const type = resolveCheckType(name);
  if (type === undefined) return { issues: [{ path: ['type'], message: unknownTypeMessage(name) }] };
  if (raw.threshold === undefined || raw.threshold === null) return withScoring(parseValue(type, raw.value, ['value']), raw);
  const placed = withThreshold(type, raw.value, raw.threshold);
  if ('issue' in placed) return { issues: [{ path: ['threshold'], message: placed.issue }] };
  return withScoring(parseValue(type, placed.value, ['value']), raw);
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

/** Check types that take no value, written alone in a cell (`is-json`). */
const VALUELESS: ReadonlySet<CheckType> = new Set(['is-json', 'not-is-json', 'contains-json', 'not-contains-json', 'answer-relevance', 'context-faithfulness']);

/** A check name alone in a cell: `is-json`, `answer-relevance`. */
const BARE = /^\s*([A-Za-z][\w-]*)\s*$/;

/** promptfoo's CSV names for checks: `grade:` is its older llm-rubric, `fn:` inline JavaScript. */
const CELL_NAMES: Readonly<Record<string, string>> = { grade: 'llm-rubric' };

function cellIssue(message: string): AssertionParse {
  return { issues: [{ path: [], message }] };
}

/**
 * A promptfoo-style CSV cell: `contains: 30 days`, `contains:30 days`, `max-latency-ms: 5000`,
 * `similar(0.8): …`, `is-json` alone. A cell that is not a check kbbench runs is an error naming it,
 * never a different check: `equals: …` is how a cell says "the answer is this text".
 */
export function parseAssertionCell(cell: string): AssertionParse {
  const bare = BARE.exec(cell);
  if (bare) {
    const type = resolveCheckType(bare[1]!);
    if (type !== undefined && VALUELESS.has(type)) return parseValue(type, undefined, []);
  }
  const match = CELL.exec(cell);
  if (!match) {
    const refused = bare ? refusedCheck(bare[1]!) : undefined;
    if (refused !== undefined) return cellIssue(`check type "${bare![1]}" is not run by kbbench: ${refused}`);
    return cellIssue(`not a check: a cell is "type: value" (contains: 30 days, regex: …, is-json); write "equals: ${cell.trim()}" if the cell is the expected answer itself`);
  }
  const written = match[1]!;
  const name = CELL_NAMES[written.toLowerCase()] ?? written;
  const type = resolveCheckType(name);
  if (type === undefined) {
    const refused = refusedCheck(name);
    if (refused !== undefined) return cellIssue(`check type "${written}" is not run by kbbench: ${refused}`);
    const near = CHECK_HINTS[name.toLowerCase()] ?? nearCheckType(name);
    const guess = near === undefined ? '' : ` (did you mean "${near}"?)`;
    return cellIssue(`unknown check type "${written}"${guess}; write "equals: ${cell.trim()}" if the cell is the expected answer itself`);
  }
  const threshold = match[2] === undefined ? undefined : Number(match[2].trim() === '' ? Number.NaN : match[2]);
  const text = (match[3] ?? '').trim();
  // A limit's cell value is its threshold (`cost: 0.01`, `latency: 5000`).
  const raw = THRESHOLD_IS_VALUE.has(type) && threshold === undefined ? { type, value: text } : { type, value: VALUELESS.has(type) && text === '' ? undefined : text, threshold };
  const parsed = parseLongForm(raw);
  if ('spec' in parsed) return parsed;
  return { issues: parsed.issues.map((issue) => ({ path: [], message: `${type}: ${issue.message}` })) };
}
