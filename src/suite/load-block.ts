// A suite's `load:` block: the load shape `kbbench run` uses when no flag gives one, in the flags'
// own words (`stages: 20s:2,20s:5`, `max_in_flight: 64`, …). Flags override it (session/suite-load.ts).
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import { durationMsOf, parseStages, type LoadStage } from '../domain/stages.js';
import type { SuiteLoad } from '../domain/suite.js';
import { buildLoadSpec, LoadFieldError, SUITE_NAMES, type LoadInput } from '../load/index.js';
import { RUN_DEFAULTS } from '../config/defaults.js';
import type { LoadAsked } from '../config/run-config.js';
import { optional, strictMap } from './primitives.js';
import { parseOutputSpec } from '../outputs/spec.js';
import { DEFAULT_TRAFFIC_WINDOW_MS, type LogShape } from '../load/kinds/traffic/log-shape.js';
import type { OutputSpec } from '../domain/output.js';

/** `outputs: [prometheus-rw=http://…/api/v1/write]`: each entry as `--output` reads it. */
const outputsSchema = z.array(z.string({ error: 'expected NAME=URL, e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write' }), { error: 'expected a list of NAME=URL' })
  .transform((list, ctx): OutputSpec[] => list.flatMap((text, i) => {
    const parsed = parseOutputSpec(text);
    if ('spec' in parsed) return [parsed.spec];
    ctx.addIssue({ code: 'custom', path: [i], message: parsed.error, input: text });
    return [];
  }));

const DURATION_MESSAGE = 'expected a duration like 30s, 2m or 500ms';

/** A duration as text (`30s`) or a number of seconds, in ms. */
const durationSchema = z
  .union([z.number().positive('must be above 0'), z.string().refine((text) => (durationMsOf(text) ?? 0) > 0, DURATION_MESSAGE)])
  .transform((value) => (typeof value === 'number' ? value * 1000 : durationMsOf(value)!));

/** k6's list form: `[{ duration: 30s, target: 5 }, …]`. */
const stageObject = strictMap('a stage', { duration: durationSchema, target: z.number().nonnegative('must be 0 or more') });

/** The flag's text form (`20s:2,20s:5,20s:8`), read as k6's list form so both report by stage. */
const stagesSchema = z.preprocess(
  (value, ctx) => {
    if (typeof value !== 'string') return value;
    try {
      return parseStages(value, (text) => durationMsOf(text) ?? Number.NaN, 'stages').map((s) => ({ duration: s.durationMs / 1000, target: s.targetPerS }));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `${error instanceof InputError ? error.message : String(error)} (or a list of { duration, target })`, input: value });
      return z.NEVER;
    }
  },
  z.array(stageObject, { error: 'expected duration:target pairs (e.g. 20s:2,20s:5) or a list of { duration, target }' })
    .min(1, 'needs at least one stage')
    .transform((list): LoadStage[] => list.map((s) => ({ durationMs: s.duration, targetPerS: s.target }))),
);

export const loadSchema = strictMap('load', {
  concurrency: optional(z.number().int('must be a whole number').positive('must be 1 or more')),
  concurrency_stages: optional(stagesSchema),
  rate: optional(z.number().positive('must be above 0')),
  duration: optional(durationSchema),
  stages: optional(stagesSchema),
  start_rate: optional(z.number().nonnegative('must be 0 or more')),
  sweep: optional(z.number().int('must be a whole number').positive('must be 1 or more')),
  slo: optional(z.array(z.string({ error: 'expected metric=expression, e.g. ttfc_ms=p(95)<2000' }), { error: 'expected a list of metric=expression' })),
  arrival: optional(z.enum(['constant', 'poisson'])),
  mix: optional(z.enum(['sequential', 'shuffle', 'weighted'])),
  max_in_flight: optional(z.number().int('must be a whole number').positive('must be 1 or more')),
  warmup: optional(durationSchema),
  degrade_quality: optional(z.boolean()),
  outputs: optional(outputsSchema),
  traffic: optional(z.string({ error: 'expected the path of a traffic log (JSONL or CSV), relative to the suite file' }).min(1, 'expected the path of a traffic log')),
  time_scale: optional(z.number().positive('must be above 0')),
  traffic_rate: optional(z.number().positive('must be above 0')),
  loop: optional(z.boolean()),
  traffic_window: optional(durationSchema),
}).superRefine((load, ctx) => {
  // A block of outputs alone keeps the flags' (or the closed loop's) load: only a shape is judged.
  const { outputs: _outputs, ...shape } = load;
  if (Object.values(shape).every((v) => v === undefined) && load.outputs !== undefined) return;
  // The flags' rules (src/load/, written once), said at the suite's own key.
  if (load.stages === undefined && load.rate === undefined && load.sweep === undefined && load.concurrency_stages === undefined && load.concurrency === undefined && load.traffic === undefined) {
    ctx.addIssue({ code: 'custom', path: ['stages'], message: 'a load block needs stages, rate and duration, sweep and duration, concurrency_stages, concurrency, or traffic' });
    return;
  }
  try {
    buildLoadSpec(loadInputOfEntry(load), SUITE_NAMES);
  } catch (error) {
    if (!(error instanceof LoadFieldError)) throw error;
    ctx.addIssue({ code: 'custom', path: [SUITE_NAMES[error.loadField]], message: error.message });
  }
});

/**
 * The block's keys as the load's input (a suite that gives no concurrency leaves the closed loop's
 * default). A `traffic:` log is read when the run starts (it may be millions of records): here its
 * keys' rules are judged on a stand-in of one record per second in the windows the block asks for.
 */
function loadInputOfEntry(entry: LoadEntry): LoadInput {
  const asked = suiteLoadAsked(buildLoad(entry, { file: '' }));
  const windowMs = entry.traffic_window ?? DEFAULT_TRAFFIC_WINDOW_MS;
  const unread: LogShape = { records: 1, spanMs: 1000, meanRatePerS: 1, windowMs, startsPerWindow: [1], thinkTime: { conversations: 0, one_time: 1, turns_per_conversation: null, gap_ms: null } };
  return { concurrency: RUN_DEFAULTS.concurrency, ...asked, ...(entry.traffic !== undefined ? { traffic: { file: entry.traffic, shape: unread } } : {}) };
}

type LoadEntry = z.infer<typeof loadSchema>;

export function buildLoad(entry: LoadEntry, location: SuiteLoad['location']): SuiteLoad {
  const load: SuiteLoad = { location };
  const keys = {
    concurrency: entry.concurrency, concurrency_stages: entry.concurrency_stages, rate: entry.rate, duration_ms: entry.duration, stages: entry.stages,
    start_rate: entry.start_rate, sweep: entry.sweep, slo: entry.slo, arrival: entry.arrival, mix: entry.mix, max_in_flight: entry.max_in_flight,
    warmup_ms: entry.warmup, degrade_quality: entry.degrade_quality, outputs: entry.outputs,
    // A relative log path is the suite file's neighbour, as a workspace is.
    traffic: entry.traffic === undefined ? undefined : resolve(dirname(location.file), entry.traffic),
    time_scale: entry.time_scale, traffic_rate: entry.traffic_rate, loop: entry.loop, traffic_window_ms: entry.traffic_window,
  };
  for (const [key, value] of Object.entries(keys)) if (value !== undefined) (load as unknown as Record<string, unknown>)[key] = value;
  return load;
}

/** The block's load keys in the load's own terms (the flags'): src/load/ reads both alike. */
export function suiteLoadAsked(load: SuiteLoad): Partial<LoadAsked> {
  const fields: Partial<LoadAsked> = {
    concurrency: load.concurrency, concurrencyStages: load.concurrency_stages, rate: load.rate, durationMs: load.duration_ms, stages: load.stages,
    startRate: load.start_rate, sweep: load.sweep, slo: load.slo, arrival: load.arrival, mix: load.mix, maxInFlight: load.max_in_flight, warmupMs: load.warmup_ms,
    // `traffic:` itself is read when the run starts (config/from-suite.ts): a path is not yet a log.
    timeScale: load.time_scale, trafficRate: load.traffic_rate, loop: load.loop, trafficWindowMs: load.traffic_window_ms,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<LoadAsked>;
}
