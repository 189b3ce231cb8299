// The zod schema of a YAML suite file (CONTRACT.md, "Suite files"): shapes and types only.
import { endpointUrlProblem } from '../client/redact.js';
import { z } from 'zod';
import { assertionSchema } from './assertion.js';
import { includeOr } from './include-entry.js';
import { loadSchema } from './load-block.js';
import { idSchema, modelsSchema, repeatPassSchema, tagsSchema, nonEmptyText, optional, requestOptionShape, strictMap } from './primitives.js';

const assertList = optional(z.array(assertionSchema));

const graderId = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'expected text') }).trim().min(1, 'must not be empty');
/** `min_kappa`, `min_labels`, `labels`: a grader earns its gate against people's labels (graders/calibration.ts). */
const calibrationKeys = {
  min_kappa: optional(z.number({ error: 'expected a number between -1 and 1' }).min(-1).max(1)),
  min_labels: optional(z.number({ error: 'expected a whole number' }).int().min(1)),
  labels: optional(z.string().trim().min(1, 'must not be empty')),
};
const openaiGrader = strictMap('grader', { openai: strictMap('grader.openai', { base_url: z.url({ error: 'must be a URL such as http://127.0.0.1:8000/v1' }).refine((url) => endpointUrlProblem(url, '') === null, 'must be an http(s) URL without a user or password (the key goes in KBBENCH_GRADER_API_KEY or --grader-key-file)'), model: graderId }), ...calibrationKeys });
const chatGrader = strictMap('grader', { chat_id: graderId, board_id: optional(graderId), model: optional(graderId), ...calibrationKeys });

/**
 * `grader: { chat_id, board_id?, model? }` (a chat of the service) or `grader: { openai: { base_url, model } }`.
 * The form is told by its `openai` key, so a mistake inside one form (`min_kappa: high`, a mistyped
 * key) is named with its field: a plain union would only say that neither form matched.
 */
export const graderSchema = z.unknown().transform((value, ctx) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'a grader is { chat_id, board_id?, model? } (a chat assistant of the service) or { openai: { base_url, model } }' });
    return z.NEVER;
  }
  const parsed = ('openai' in value ? openaiGrader : chatGrader).safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

const THINK_DURATION = '\\d+(?:\\.\\d+)?(?:ms|s|m)?';
/** `2s`, `500ms`, `1s-3s` (a range), or a number of seconds. */
export const thinkTimeSchema = z.union([
  z.number().nonnegative(),
  z.string().regex(new RegExp(`^\\s*${THINK_DURATION}\\s*(?:-\\s*${THINK_DURATION}\\s*)?$`), 'expected a duration like 2s, or a range like 1s-3s'),
]);

export const caseSchema = strictMap('a case', {
  id: idSchema,
  prompt: nonEmptyText,
  description: optional(z.string()),
  models: optional(modelsSchema),
  tags: optional(tagsSchema),
  repeat_pass: optional(repeatPassSchema),
  assert: assertList,
  /** Known to fail, with the reason: reported as an expected failure, never failing the run. */
  expect_fail: optional(nonEmptyText),
  weight: optional(z.number().positive('must be above 0')),
  ...requestOptionShape,
});

export const turnSchema = strictMap('a turn', {
  turn: optional(z.number().int('must be a whole number').positive('must be 1 or more')),
  prompt: nonEmptyText,
  description: optional(z.string()),
  assert: assertList,
  ...requestOptionShape,
});

export const threadSchema = strictMap('a thread', {
  id: idSchema,
  name: optional(nonEmptyText),
  description: optional(z.string()),
  models: optional(modelsSchema),
  expect_fail: optional(nonEmptyText),
  tags: optional(tagsSchema),
  repeat_pass: optional(repeatPassSchema),
  turns: z.array(turnSchema).min(1, 'a thread needs at least one turn'),
  think_time: optional(thinkTimeSchema),
  weight: optional(z.number().positive('must be above 0')),
});

// k6's two forms: the expression, or `{ threshold, abortOnFail, delayAbortEval }`.
const thresholdObject = strictMap('a threshold', {
  threshold: z.string(),
  abortOnFail: optional(z.boolean()),
  delayAbortEval: optional(z.union([z.string().regex(/^\s*\d+(?:\.\d+)?(?:ms|s|m|h)?\s*$/, 'expected a duration like 10s or 1m'), z.number().nonnegative()])),
});
const thresholdList = z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(z.union([z.string(), thresholdObject])));

export const suiteFileSchema = strictMap('the suite', {
  name: optional(nonEmptyText),
  description: optional(z.string()),
  target: optional(strictMap('target', { board_id: optional(nonEmptyText), chat_id: optional(nonEmptyText) })),
  models: optional(modelsSchema),
  defaults: optional(strictMap('defaults', requestOptionShape)),
  cases: optional(z.array(includeOr(caseSchema))),
  threads: optional(z.array(includeOr(threadSchema))),
  thresholds: optional(z.record(z.string(), thresholdList)),
  think_time: optional(thinkTimeSchema),
  workspace: optional(nonEmptyText),
  repeat_pass: optional(repeatPassSchema),
  load: optional(loadSchema),
  grader: optional(graderSchema),
  knowledge: optional(z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(nonEmptyText).min(1, 'name at least one document or pattern (docs/*.md)'))),
});

export type SuiteFile = z.infer<typeof suiteFileSchema>;
export type CaseEntry = z.infer<typeof caseSchema>;
/** `- file://questions.csv` in `cases:` or `threads:` (globs allowed): the items of the files it names. */
export type IncludeEntry = string;
export type ThreadEntry = z.infer<typeof threadSchema>;
