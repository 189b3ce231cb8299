// The one load model: every kind of load is a module of its own (kinds/<kind>/, behind the LoadKind
// interface of kind.ts, listed in kinds/registry.ts), and buildLoadSpec turns the load fields of the
// flags or of a suite's `load:` block into one typed, validated LoadSpec.
import type { z } from 'zod';
import type { LoadKindName, LoadSpec } from '../domain/load.js';
import { FLAG_NAMES, isGiven, LoadFieldError, type FieldNames, type LoadField, type LoadInput } from './input.js';
import type { LoadKind } from './kind.js';
import { kindOf, LOAD_KINDS } from './kinds/registry.js';
import { PATH_FIELDS, REFUSALS } from './rules.js';

/**
 * When two kinds are asked for, the first in registry order (kinds/registry.ts) names the clash;
 * the default kind (no triggers: closed) is chosen only when no other is asked for.
 */
const kindNames = (): LoadKindName[] => Object.keys(LOAD_KINDS) as LoadKindName[];
const precedence = (): LoadKindName[] => kindNames().filter((kind) => kindOf(kind).triggers.length > 0);
const defaultKind = (): LoadKindName => kindNames().find((kind) => kindOf(kind).triggers.length === 0)!;

function fieldOfIssue(def: LoadKind, path: readonly PropertyKey[]): LoadField {
  for (let i = path.length - 1; i >= 0; i -= 1) {
    const key = path[i];
    if (typeof key !== 'string') continue;
    const field = def.paths?.[key] ?? PATH_FIELDS[key];
    if (field !== undefined) return field;
  }
  return def.triggers[0] ?? 'concurrency';
}

/** The spec checked by its kind's own schema; an issue names the field that set the value at fault. */
export function validateSpec(spec: LoadSpec, n: FieldNames = FLAG_NAMES): LoadSpec {
  const def = kindOf(spec.kind);
  const parsed = (def.schema as z.ZodType<LoadSpec>).safeParse(spec);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new LoadFieldError(fieldOfIssue(def, issue.path), issue.message, n);
}

/**
 * The load spec of the input: the kind its fields ask for (two kinds at once are an error), every
 * field given that the kind does not read refused by name, then the kind's own rules and schema.
 * `n` names the fields as the input does (flags, or a suite's keys).
 */
export function buildLoadSpec(input: LoadInput, n: FieldNames = FLAG_NAMES): LoadSpec {
  const asked = precedence().filter((kind) => kindOf(kind).triggers.some((field) => isGiven(input, field)));
  const kind = asked[0] ?? defaultKind();
  const def = kindOf(kind);
  if (asked.length > 1) {
    const other = kindOf(asked[1]!).triggers.find((field) => isGiven(input, field))!;
    throw new LoadFieldError(def.triggers[0]!, def.clash(n[other], n), n);
  }
  for (const field of Object.keys(n) as LoadField[]) {
    if (field === 'resume' || !isGiven(input, field) || def.accepts.includes(field)) continue;
    throw new LoadFieldError(field, (def.refuse?.[field] ?? REFUSALS[field])(n), n);
  }
  if (input.resume === true && def.noResume !== undefined) throw new LoadFieldError('resume', def.noResume, n);
  return validateSpec(def.build(input, n), n);
}

export { defaultMaxInFlight, FLAG_NAMES, SUITE_NAMES, LoadFieldError, type FieldNames, type LoadField, type LoadInput } from './input.js';
export type { LoadKind, LoopContext, ProbedRates, RatesFound, WorkerPlaces } from './kind.js';
export { kindOf, LOAD_KINDS } from './kinds/registry.js';
export { MAX_SWEEP_RATES, SWEEP_PROBE_MAX_MS, SWEEP_SATURATION_WORKERS } from './kinds/sweep/limits.js';
export {
  arrivalProfileOf, describeLoad, isTimeBound, loopOf, noResumeOf, oneModelReasonOf, ownConversationsOf, resumeClashOf, resumeClockOf, oneWorkerReason, probedOf, specConcurrency, scheduleOf, shardsSchedule, specMaxInFlight, startsOnWholeSecond, volumeUnknownOf, workerPlacesOf,
  workersProfileOf,
} from './profile.js';
