// The zod schema of a YAML suite file (CONTRACT.md, "Suite files"): shapes and types only.
import { z } from 'zod';
import { assertionSchema } from './assertion.js';
import { idSchema, modelsSchema, repeatPassSchema, tagsSchema, nonEmptyText, optional, requestOptionShape, strictMap } from './primitives.js';

const assertList = optional(z.array(assertionSchema));

export const caseSchema = strictMap('a case', {
  id: idSchema,
  prompt: nonEmptyText,
  description: optional(z.string()),
  models: optional(modelsSchema),
  tags: optional(tagsSchema),
  repeat_pass: optional(repeatPassSchema),
  assert: assertList,
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
  tags: optional(tagsSchema),
  repeat_pass: optional(repeatPassSchema),
  turns: z.array(turnSchema).min(1, 'a thread needs at least one turn'),
});

const thresholdList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string()));

export const suiteFileSchema = strictMap('the suite', {
  name: optional(nonEmptyText),
  description: optional(z.string()),
  target: optional(strictMap('target', { board_id: optional(nonEmptyText), chat_id: optional(nonEmptyText) })),
  models: optional(modelsSchema),
  defaults: optional(strictMap('defaults', requestOptionShape)),
  cases: optional(z.array(caseSchema)),
  threads: optional(z.array(threadSchema)),
  thresholds: optional(z.record(z.string(), thresholdList)),
  workspace: optional(nonEmptyText),
  repeat_pass: optional(repeatPassSchema),
});

export type SuiteFile = z.infer<typeof suiteFileSchema>;
export type CaseEntry = z.infer<typeof caseSchema>;
export type ThreadEntry = z.infer<typeof threadSchema>;
