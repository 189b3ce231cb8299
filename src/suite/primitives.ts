// zod building blocks shared by the suite schemas: ids, prompts, models, request options.
import { z } from 'zod';
import type { RequestOptions } from '../domain/suite.js';
import { KEY_HINTS } from './promptfoo/vocabulary.js';
import { didYouMean } from './suite-error.js';
import { describeValue } from './zod-issues.js';

export const REQUEST_OPTION_KEYS = [
  'method',
  'streaming',
  'plaintext',
  'include_usage',
  'additional_context',
  'save_history',
  'user',
  'source',
] as const satisfies readonly (keyof RequestOptions)[];

export const BOOLEAN_OPTION_KEYS = ['streaming', 'plaintext', 'include_usage', 'save_history'] as const;
export const TEXT_OPTION_KEYS = ['additional_context', 'user', 'source'] as const;

export function unknownKeyMessage(what: string, keys: readonly string[], allowed: readonly string[]): string {
  const first = keys[0] ?? '';
  const named = keys.map((key) => `"${key}"`).join(', ');
  // promptfoo's own words get what they mean in kbbench, not the nearest-spelled key (`vars` is not `tags`).
  const hint = KEY_HINTS[first];
  const guess = hint === undefined ? didYouMean(first, allowed) : ` (${hint})`;
  return `unknown key${keys.length > 1 ? 's' : ''} ${named} in ${what}${guess}; allowed keys: ${allowed.join(', ')}`;
}

/** A map that rejects unknown keys, so a typo like `case:` is an error rather than ignored. */
export function strictMap<T extends z.core.$ZodLooseShape>(what: string, shape: T) {
  const allowed = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownKeyMessage(what, issue.keys, allowed) : undefined),
  });
}

/** An optional value where an empty YAML value (`key:` with nothing after it) counts as absent. */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === null ? undefined : value), schema.optional());
}

export const nonEmptyText = z.string().refine((text) => text.trim() !== '', { message: 'must not be empty' });

/** Ids end up inside item ids (`case:<id>|model:…`), so they must not contain the separator. */
export const idSchema = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine((id) => !/[|\r\n\t]/.test(id), { message: "must not contain '|', tabs or line breaks (item ids use '|' as a separator)" }),
);

export function modelList(value: string): string[] {
  return value
    .split(',')
    .map((model) => model.trim())
    .filter((model) => model !== '');
}

export const modelsSchema = z
  .preprocess((value) => (typeof value === 'string' ? modelList(value) : value), z.array(z.string().trim().min(1, 'a model name must not be empty')))
  .superRefine((models, ctx) => {
    models.forEach((model, index) => {
      if (models.indexOf(model) !== index) ctx.addIssue({ code: 'custom', path: [index], message: `model "${model}" is listed twice` });
    });
  });

/** `repeat_pass: 2/3`: at least k of n repeats pass (1 ≤ k ≤ n). */
export const repeatPassSchema = z
  .string({ error: 'must be k/n, e.g. 2/3' })
  .regex(/^\s*\d+\s*\/\s*\d+\s*$/, 'must be k/n, e.g. 2/3 (at least k of n repeats pass)')
  .transform((text) => {
    const [k, n] = text.split('/').map((part) => Number(part.trim()));
    return { k: k!, n: n! };
  })
  .refine((rule) => rule.n >= 1 && rule.k >= 1 && rule.k <= rule.n, 'k/n needs 1 ≤ k ≤ n');

/** Tags of a case or thread: a list, or one text separated by `;` or `,` (a CSV cell uses `;`). */
export function tagList(value: string): string[] {
  return [...new Set(value.split(/[;,]/).map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

export const tagsSchema = z.preprocess(
  (value) => (typeof value === 'string' ? tagList(value) : value),
  z.array(z.string().trim().min(1, 'a tag must not be empty').regex(/^[^{}:,;]+$/, 'a tag may not contain { } : , or ;')),
);

const booleanOption = z.boolean({
  error: (issue) => (issue.input === undefined ? undefined : `must be true or false (without quotes), found ${describeValue(issue.input)}`),
});

const methodOption = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(['post', 'get'], { error: (issue) => `must be post or get, found ${describeValue(issue.input)}` }),
);

/** The request options a suite's `defaults`, a case or a turn may set, with their types. */
export const requestOptionShape = {
  method: optional(methodOption),
  streaming: optional(booleanOption),
  plaintext: optional(booleanOption),
  include_usage: optional(booleanOption),
  additional_context: optional(z.string()),
  save_history: optional(booleanOption),
  user: optional(z.string()),
  source: optional(z.string()),
};

/** The request options present in a parsed object, without undefined keys. */
export function pickOptions(source: Partial<Record<keyof RequestOptions, unknown>>): RequestOptions {
  const options: Record<string, unknown> = {};
  for (const key of REQUEST_OPTION_KEYS) {
    if (source[key] !== undefined) options[key] = source[key];
  }
  return options as RequestOptions;
}
