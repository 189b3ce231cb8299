// run.json read and checked: a versioned RunInfo (zod), its options the typed run config as
// recorded; older run.json migrated on read (kbbench 0.1.0's load spec rebuilt from the options it
// recorded; schema 2's load fields left in `load.spec` alone), and a one-line error naming the file
// and the field when it is not one (exit 2, never a TypeError).
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import type { LoadSpec } from '../domain/load.js';
import { RUN_INFO_SCHEMA_VERSION, type RunInfo } from '../domain/run.js';
import { RecordedRunConfigSchema } from '../domain/run-config.js';
import { flatOptionsSchema, sectionsOfFlatOptions } from './run-info-v3.js';
import { buildLoadSpec, LOAD_KINDS, validateSpec, type LoadInput } from '../load/index.js';
import { RUN_DEFAULTS } from '../config/defaults.js';

const text = z.string({ error: 'expected text' });
const isLoadKind = (kind: string): boolean => Object.hasOwn(LOAD_KINDS, kind);
const count = z.number({ error: 'expected a number' });
const stringList = z.array(z.string(), { error: 'expected a list of text' });

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
  config: RecordedRunConfigSchema,
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
  return { ...raw, options: kept, schema_version: 3 };
}

/**
 * Schema 1 (kbbench 0.1.0): no version, the load in `options`, `load` only for an open loop's
 * stages. Schema 2: the load spec in `load.spec`, its flag fields still in `options`. Both read as 3.
 */
function toSchema3(raw: Record<string, unknown>, file: string): Record<string, unknown> {
  if (raw.schema_version === 2) return withoutLoadOptions(raw);
  if (raw.schema_version !== undefined) return raw;
  const options = raw.options;
  // Without options there is nothing to migrate: the schema then names the missing field.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return { ...raw, schema_version: 3 };
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

/** Schema 3 kept the config flat as `options`: checked as it stood, then put in its sections (schema 4's `config`). */
function migrate(raw: Record<string, unknown>, file: string): Record<string, unknown> {
  const three = toSchema3(raw, file);
  if (three.schema_version !== 3) return three;
  const { options, ...rest } = three;
  if (options === undefined) throw new InputError('run.json has no "options" (written by another tool, or edited by hand)', { file, field: 'options' });
  const flat = flatOptionsSchema.safeParse(options);
  if (!flat.success) throw fieldError(flat.error.issues[0]!, three, file, ['options']);
  return { ...rest, schema_version: RUN_INFO_SCHEMA_VERSION, config: sectionsOfFlatOptions(flat.data) };
}

/** The InputError of a schema issue: the field named by its path (a missing one said so). */
function fieldError(issue: z.core.$ZodIssue, raw: unknown, file: string, prefix: readonly PropertyKey[] = []): InputError {
  const path = [...prefix, ...issue.path];
  const field = path.map(String).join('.') || '(top)';
  const missing = valueAt(raw, path) === undefined;
  return new InputError(missing ? `run.json has no "${field}" (written by another tool, or edited by hand)` : `run.json "${field}": ${issue.message}`, { file, field });
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
  if (!parsed.success) throw fieldError(parsed.error.issues[0]!, migrated, file);
  const info = parsed.data as unknown as RunInfo;
  try {
    validateSpec(info.load.spec);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(`run.json: its load spec is not valid (${error.message})`, { file, field: 'load.spec' });
  }
  return info;
}

