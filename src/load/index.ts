// The one load model: LOAD_KINDS names every kind of load (closed, ramping-workers, arrivals,
// sweep), and buildLoadSpec turns the load fields of the flags or of a suite's `load:` block into
// one typed, validated LoadSpec. A new kind is a file here and a line in LOAD_KINDS.
import type { z } from 'zod';
import type { LoadKind, LoadSpec } from '../domain/load.js';
import { arrivalsKind } from './arrivals.js';
import { closedKind } from './closed.js';
import { FLAG_NAMES, isGiven, LoadFieldError, type FieldNames, type LoadField, type LoadInput } from './input.js';
import type { LoadKindDef } from './kind.js';
import { rampingWorkersKind } from './ramping-workers.js';
import { PATH_FIELDS, REFUSALS } from './rules.js';
import { sweepKind } from './sweep.js';

export const LOAD_KINDS: { [K in LoadKind]: LoadKindDef<Extract<LoadSpec, { kind: K }>> } = {
  closed: closedKind,
  'ramping-workers': rampingWorkersKind,
  arrivals: arrivalsKind,
  sweep: sweepKind,
};

/** When two kinds are asked for, the first of this order names the clash. */
const PRECEDENCE: readonly LoadKind[] = ['sweep', 'ramping-workers', 'arrivals', 'closed'];

function kindDef(kind: LoadKind): LoadKindDef {
  return LOAD_KINDS[kind] as unknown as LoadKindDef;
}

function fieldOfIssue(def: LoadKindDef, path: readonly PropertyKey[]): LoadField {
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
  const def = kindDef(spec.kind);
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
  const asked = PRECEDENCE.filter((kind) => kindDef(kind).triggers.some((field) => isGiven(input, field)));
  const kind = asked[0] ?? 'closed';
  const def = kindDef(kind);
  if (asked.length > 1) {
    const other = kindDef(asked[1]!).triggers.find((field) => isGiven(input, field))!;
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
export type { LoadKindDef } from './kind.js';
export { MAX_SWEEP_RATES, SWEEP_PROBE_MAX_MS, SWEEP_SATURATION_WORKERS } from './sweep.js';
export { arrivalProfileOf, scheduleOf, workersProfileOf } from './profile.js';

/** Why a forecast cannot count what this load sends, or null when it can (load/kind.ts `volumeUnknown`). */
export function volumeUnknownOf(spec: LoadSpec): string | null {
  return kindDef(spec.kind).volumeUnknown ?? null;
}
