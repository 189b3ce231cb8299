// run.json schema 3 (and the older ones migrated to it) kept the run config flat as `options`:
// each field's type checked where it stood (errors name `options.<field>`), then put in its section.
import { z } from 'zod';
import { OUTPUT_KINDS } from '../domain/output.js';
import type { RecordedRunConfig } from '../domain/run-config.js';

const text = z.string({ error: 'expected text' });
const count = z.number({ error: 'expected a number' });
const stringList = z.array(z.string(), { error: 'expected a list of text' });
const flag = z.boolean({ error: 'expected true or false' });

/** Schema 3's `options`: each field's type checked, other fields kept as written (and left out of the sections). */
export const flatOptionsSchema = z.looseObject({
  suitePath: text, baseUrl: text, auth: z.enum(['header', 'query']), board: text, chat: text, models: stringList, repeat: count, workers: count,
  gracefulStopMs: count, seed: count, judgeSample: count, maxErrors: count, maxErrorRate: count, errorWindowMs: count, requestDefaults: z.looseObject({}),
  timeoutMs: count, retries: count, maxRetryWaitMs: count, maxCredits: count, minRemaining: count, creditPrice: count, currency: text,
  shard: z.looseObject({ index: count, count }), startAt: text, resumeDir: text, outDir: text, reportsRoot: text, filter: stringList, onlyFailedDir: text,
  embeddings: z.looseObject({ baseUrl: text, model: text }), thresholdFlags: stringList,
  embedded: z.looseObject({ workspacePath: text.optional(), seed: count.optional(), latencyScale: count.optional(), degradeQuality: flag.optional() }),
  dialect: text, failOn: stringList, allowChangedSuite: flag, graderChat: text, graderModel: text, graderUrl: text,
  outputs: z.array(z.looseObject({ kind: z.enum(OUTPUT_KINDS), url: text })), kbVersion: text, reuseAnswers: stringList, purpose: text, merged_from: stringList,
}).partial();

type Section = Exclude<keyof RecordedRunConfig, 'embedded'>;

/** Where each of schema 3's flat fields went (its name in the section when it changed). */
const SECTION_OF: Record<string, [Section, string]> = {
  baseUrl: ['target', 'baseUrl'], auth: ['target', 'auth'], board: ['target', 'board'], chat: ['target', 'chat'], dialect: ['target', 'dialect'], kbVersion: ['target', 'kbVersion'],
  suitePath: ['plan', 'suitePath'], models: ['plan', 'models'], repeat: ['plan', 'repeat'], filter: ['plan', 'filter'], onlyFailedDir: ['plan', 'onlyFailedDir'], seed: ['plan', 'seed'],
  requestDefaults: ['request', 'requestDefaults'], timeoutMs: ['request', 'timeoutMs'], retries: ['request', 'retries'], maxRetryWaitMs: ['request', 'maxRetryWaitMs'], gracefulStopMs: ['request', 'gracefulStopMs'],
  maxCredits: ['budget', 'maxCredits'], minRemaining: ['budget', 'minRemaining'], creditPrice: ['budget', 'creditPrice'], currency: ['budget', 'currency'],
  maxErrors: ['stop', 'maxErrors'], maxErrorRate: ['stop', 'maxErrorRate'], errorWindowMs: ['stop', 'errorWindowMs'],
  thresholdFlags: ['gates', 'thresholdFlags'], failOn: ['gates', 'failOn'],
  outputs: ['outputs', 'live'], outDir: ['outputs', 'outDir'], reportsRoot: ['outputs', 'reportsRoot'],
  graderChat: ['grader', 'chat'], graderModel: ['grader', 'model'], graderUrl: ['grader', 'url'], judgeSample: ['grader', 'judgeSample'], embeddings: ['grader', 'embeddings'],
  workers: ['placement', 'workers'], shard: ['placement', 'shard'], startAt: ['placement', 'startAt'], resumeDir: ['placement', 'resumeDir'],
  reuseAnswers: ['record', 'reuseAnswers'], allowChangedSuite: ['record', 'allowChangedSuite'], purpose: ['record', 'purpose'], merged_from: ['record', 'mergedFrom'],
};

/** Schema 3's flat `options` (checked) as schema 4's sections; fields of no section (written by another tool) are left out. */
export function sectionsOfFlatOptions(options: z.infer<typeof flatOptionsSchema>): Record<string, Record<string, unknown>> {
  const config: Record<string, Record<string, unknown>> = { embedded: { ...(options.embedded ?? {}) } };
  for (const [key, value] of Object.entries(options)) {
    const at = SECTION_OF[key];
    if (at === undefined || value === undefined) continue;
    (config[at[0]] ??= {})[at[1]] = value;
  }
  return config;
}
