// What each kind of load says about itself (k6: one config type per executor that validates itself).
import type { z } from 'zod';
import type { LoadSpec } from '../domain/load.js';
import type { FieldNames, LoadField, LoadInput } from './input.js';

export interface LoadKindDef<S extends LoadSpec = LoadSpec> {
  kind: S['kind'];
  /** One line for --help, docs and errors. */
  summary: string;
  /** Fields whose presence asks for this kind (none: the default, closed). */
  triggers: readonly LoadField[];
  /** Fields this kind reads; any other field given is an error (load/rules.ts says why, or `refuse` does). */
  accepts: readonly LoadField[];
  /** This kind's own word for a field it does not take, where the general rule would mislead. */
  refuse?: Partial<Record<LoadField, (n: FieldNames) => string>>;
  /** Said when another kind's field (`other`, by its name) is given as well. */
  clash(other: string, n: FieldNames): string;
  /** The spec's own schema: the spec built from flags and the one read from run.json are checked by it. */
  schema: z.ZodType<S>;
  /** The spec's key that a schema issue lands on, as the input field that set it (default: load/rules.ts). */
  paths?: Partial<Record<string, LoadField>>;
  /** The spec from the input: throws LoadFieldError naming the field at fault. */
  build(input: LoadInput, n: FieldNames): S;
  /** Why `--resume` cannot continue it (a schedule is tied to its start, a probe to its moment); absent: it can. */
  noResume?: string;
  /**
   * Why a credit forecast cannot count what this kind sends (its volume depends on the service's
   * answers or on probes); absent: the plan, or its schedule of starts, gives the count.
   */
  volumeUnknown?: string;
}
