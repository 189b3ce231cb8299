// A suite's `load:` block: the load shape `kbbench run` uses when no flag gives one, in the flags'
// own words (`stages: 20s:2,20s:5`, `max_in_flight: 64`, …). Flags override it (session/suite-load.ts).
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import { durationMsOf, parseStages, type LoadStage } from '../domain/stages.js';
import type { SuiteLoad } from '../domain/suite.js';
import { optional, strictMap } from './primitives.js';

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
  rate: optional(z.number().positive('must be above 0')),
  duration: optional(durationSchema),
  stages: optional(stagesSchema),
  start_rate: optional(z.number().nonnegative('must be 0 or more')),
  arrival: optional(z.enum(['constant', 'poisson'])),
  mix: optional(z.enum(['sequential', 'shuffle', 'weighted'])),
  max_in_flight: optional(z.number().int('must be a whole number').positive('must be 1 or more')),
  warmup: optional(durationSchema),
  degrade_quality: optional(z.boolean()),
}).superRefine((load, ctx) => {
  // The same rules as the flags (session/load-profile.ts), said where the suite wrote them.
  const issue = (path: string, message: string): void => ctx.addIssue({ code: 'custom', path: [path], message });
  if (load.stages !== undefined && load.rate !== undefined) issue('rate', 'stages and rate are two arrival rates: give one (a constant rate is one stage, e.g. stages: 1m:20)');
  if (load.stages !== undefined && load.duration !== undefined) issue('duration', 'stages carry their own durations; leave out duration');
  if (load.rate !== undefined && load.duration === undefined) issue('rate', 'rate needs duration (for how long to keep it), e.g. duration: 60s');
  if (load.duration !== undefined && load.rate === undefined && load.stages === undefined) issue('duration', 'duration goes with rate');
  if (load.start_rate !== undefined && load.stages === undefined) issue('start_rate', 'start_rate is where stages ramp from; it needs stages');
  if (load.stages !== undefined && load.stages.every((s) => s.targetPerS === 0) && (load.start_rate ?? 0) === 0) issue('stages', 'plans no start at all (every target is 0)');
  if (load.stages === undefined && load.rate === undefined) issue('stages', 'a load block needs stages, or rate and duration');
});

export type LoadEntry = z.infer<typeof loadSchema>;

export function buildLoad(entry: LoadEntry, location: SuiteLoad['location']): SuiteLoad {
  const load: SuiteLoad = { location };
  if (entry.rate !== undefined) load.rate = entry.rate;
  if (entry.duration !== undefined) load.duration_ms = entry.duration;
  if (entry.stages !== undefined) load.stages = entry.stages;
  if (entry.start_rate !== undefined) load.start_rate = entry.start_rate;
  if (entry.arrival !== undefined) load.arrival = entry.arrival;
  if (entry.mix !== undefined) load.mix = entry.mix;
  if (entry.max_in_flight !== undefined) load.max_in_flight = entry.max_in_flight;
  if (entry.warmup !== undefined) load.warmup_ms = entry.warmup;
  if (entry.degrade_quality !== undefined) load.degrade_quality = entry.degrade_quality;
  return load;
}
