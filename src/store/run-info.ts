// run.json read and checked: a versioned RunInfo (zod), its options the typed run config as
// recorded; older run.json migrated on read (kbbench 0.1.0's load spec rebuilt from the options it
// recorded; schema 2's load fields left in `load.spec` alone), and a one-line error naming the file
// and the field when it is not one (exit 2, never a TypeError).
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import type { LoadSpec } from '../domain/load.js';
import { OUTPUT_KINDS } from '../domain/output.js';
import { RUN_INFO_SCHEMA_VERSION, type RunInfo } from '../domain/run.js';
import { buildLoadSpec, LOAD_KINDS, validateSpec, type LoadInput } from '../load/index.js';
import { RUN_DEFAULTS } from '../config/defaults.js';

const text = z.string({ error: 'expected text' });
const isLoadKind = (kind: string): boolean => Object.hasOwn(LOAD_KINDS, kind);
const count = z.number({ error: 'expected a number' });
const stringList = z.array(z.string(), { error: 'expected a list of text' });
const flag = z.boolean({ error: 'expected true or false' });

/** run.json's `options` (domain/run.ts RecordedOptions): each field's type checked, other fields kept as written. */
const recordedOptionsSchema = z.looseObject({
  suitePath: text, baseUrl: text, auth: z.enum(['header', 'query']), board: text, chat: text, models: stringList, repeat: count, workers: count,
  gracefulStopMs: count, seed: count, maxErrors: count, maxErrorRate: count, errorWindowMs: count, requestDefaults: z.looseObject({}),
  timeoutMs: count, retries: count, maxRetryWaitMs: count, maxCredits: count, minRemaining: count, creditPrice: count, currency: text,
  shard: z.looseObject({ index: count, count }), startAt: text, resumeDir: text, outDir: text, reportsRoot: text, filter: stringList, onlyFailedDir: text,
  embeddings: z.looseObject({ baseUrl: text, model: text }), thresholdFlags: stringList,
  embedded: z.looseObject({ workspacePath: text.optional(), seed: count.optional(), latencyScale: count.optional(), degradeQuality: flag.optional() }),
  dialect: text, failOn: stringList, allowChangedSuite: flag, graderChat: text, graderModel: text, graderUrl: text,
  outputs: z.array(z.looseObject({ kind: z.enum(OUTPUT_KINDS), url: text })), purpose: text, merged_from: stringList,
}).partial();

/** What every reader relies on; other fields pass through as written. */
const runInfoSchema = z.looseObject({
  schema_version: z.literal(RUN_INFO_SCHEMA_VERSION, { error: `expected ${RUN_INFO_SCHEMA_VERSION}` }),
  run_id: text,
  label: text.optional(),
  commit: text.optional(),
  knowledge_base: z.looseObject({ version: text.optional(), sha256: text }).optional(),
  tool: z.looseObject({ name: z.literal('kbbench', { error: 'expected "kbbench"' }), version: text }),
  suite: z.looseObject({ name: text, path: text, sha256: text }),
  plan: z.looseObject({ items: count, requests: count, threads: count, models: stringList, starts: count.optional(), plan_requests: count.optional() }),
  options: recordedOptionsSchema,
  target: z.looseObject({ base_url: text, embedded: z.boolean({ error: 'expected true or false' }), board_id: text, chat_id: text }),
  thresholds: z.record(z.string(), stringList).default({}),
  started_at: text,
  finished_at: text.nullable().default(null),
  duration_ms: count.nullable().default(null),
  status: z.enum(['running', 'completed', 'interrupted', 'budget-exhausted', 'failed', 'aborted']),
  // Any kind the registry holds (load/kinds/registry.ts): its own schema checks the rest (validateSpec below).
  load: z.looseObject({ spec: z.looseObject({ kind: z.string({ error: 'expected text' }).refine(isLoadKind, { error: (issue) => `not a load kind: ${String(issue.input)} (expected one of ${Object.keys(LOAD_KINDS).join(', ')})` }) }) }),
});

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const list = <T>(value: unknown): T[] | undefined => (Array.isArray(value) ? (value as T[]) : undefined);

/** kbbench 0.1.0 recorded the load as the session's flag fields: they are the spec's input. */
function loadInputOfOptions(o: Record<string, unknown>): LoadInput {
  const input: LoadInput = { concurrency: num(o.concurrency) ?? RUN_DEFAULTS.concurrency };
  const fields = {
    rate: num(o.rate), durationMs: num(o.durationMs), stages: list<{ durationMs: number; targetPerS: number }>(o.stages), startRate: num(o.startRate),
    sweep: num(o.sweep), slo: list<string>(o.slo), concurrencyStages: list<{ durationMs: number; targetPerS: number }>(o.concurrencyStages),
    arrival: o.arrival === 'poisson' || o.arrival === 'constant' ? o.arrival : undefined,
    mix: o.mix === 'shuffle' || o.mix === 'weighted' || o.mix === 'sequential' ? o.mix : undefined,
    maxInFlight: num(o.maxInFlight), warmupMs: num(o.warmupMs), shard: o.shard !== undefined && o.shard !== null,
  };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) (input as unknown as Record<string, unknown>)[key] = value;
  return input;
}

/** The load fields schema 1 and 2 kept in `options` (and the flag that left a suite's block out): schema 3 holds them in `load.spec` alone. */
const LEGACY_LOAD_OPTIONS = ['concurrency', 'rate', 'durationMs', 'stages', 'startRate', 'sweep', 'slo', 'concurrencyStages', 'arrival', 'mix', 'maxInFlight', 'warmupMs', 'ignoreSuiteLoad'];

function withoutLoadOptions(raw: Record<string, unknown>): Record<string, unknown> {
  const options = raw.options;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return raw;
  const kept = Object.fromEntries(Object.entries(options).filter(([key]) => !LEGACY_LOAD_OPTIONS.includes(key)));
  return { ...raw, options: kept, schema_version: RUN_INFO_SCHEMA_VERSION };
}

/**
 * Schema 1 (kbbench 0.1.0): no version, the load in `options`, `load` only for an open loop's
 * stages. Schema 2: the load spec in `load.spec`, its flag fields still in `options`. Both read as 3.
 */
function migrate(raw: Record<string, unknown>, file: string): Record<string, unknown> {
  if (raw.schema_version === 2) return withoutLoadOptions(raw);
  if (raw.schema_version !== undefined) return raw;
  const options = raw.options;
  // Without options there is nothing to migrate: the schema then names the missing field.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return { ...raw, schema_version: RUN_INFO_SCHEMA_VERSION };
  let spec: LoadSpec;
  try {
    spec = buildLoadSpec(loadInputOfOptions(options as Record<string, unknown>));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(`run.json (schema 1): its options hold no valid load (${error.message})`, { file, field: `options (${error.location.field ?? 'load'})` });
  }
  const old = typeof raw.load === 'object' && raw.load !== null ? (raw.load as Record<string, unknown>) : {};
  return withoutLoadOptions({ ...raw, load: { ...old, spec } });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) at = typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/** The RunInfo of a parsed run.json, or an InputError naming `file` and the first field at fault. */
export function parseRunInfo(raw: unknown, file: string): RunInfo {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputError('run.json is not an object', { file });
  const migrated = migrate(raw as Record<string, unknown>, file);
  const parsed = runInfoSchema.safeParse(migrated);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || '(top)';
    const missing = valueAt(migrated, issue.path) === undefined;
    throw new InputError(missing ? `run.json has no "${field}" (written by another tool, or edited by hand)` : `run.json "${field}": ${issue.message}`, { file, field });
  }
  const info = parsed.data as unknown as RunInfo;
  try {
    validateSpec(info.load.spec);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(`run.json: its load spec is not valid (${error.message})`, { file, field: 'load.spec' });
  }
  return info;
}

