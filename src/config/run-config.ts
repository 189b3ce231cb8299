// A run's config: what a run is asked to do, one typed value in sections under one zod schema
// (RunConfigSchema; the `run` command's flags, a suite's blocks and the library all build it through its parse).
import { z } from 'zod';
import type { LoadSpec } from '../domain/load.js';
import type { EmbeddedSchema} from '../domain/run-config.js';
import { GatesSchema, RecordedRunConfigSchema, RUN_CONFIG_SECTIONS, type RecordedRunConfig } from '../domain/run-config.js';
import type { LoadInput } from '../load/index.js';
import { GATES } from '../metrics/gates.js';
import { recordableOutputs } from '../outputs/spec.js';

/** The load fields as asked (src/load/'s input: the same for flags and a suite's `load:` block). */
export type LoadAsked = Omit<LoadInput, 'shard' | 'resume'>;

/**
 * The run's load (one section): as the flags ask it, the suite's `load:` block under them, until
 * prepareRun builds its spec (src/load/); a derived run (confirm's re-asks, estimate's sample)
 * replaces the whole section with a spec of its own, never a list of fields to clear.
 */
export type LoadSection = { asked: LoadAsked } | { spec: LoadSpec };

const isRecord = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/** src/load/ checks the fields (buildLoadSpec, validateSpec): here only the section's shape. */
const LoadSectionSchema = z.union([
  z.object({ asked: z.custom<LoadAsked>(isRecord, { error: 'expected the load as asked' }) }),
  z.object({ spec: z.custom<LoadSpec>(isRecord, { error: 'expected a load spec' }) }),
]);

export const RunConfigSchema = z.object({
  ...RUN_CONFIG_SECTIONS,
  gates: GatesSchema.extend({ failOn: z.array(z.enum(GATES)).optional() }),
  load: LoadSectionSchema,
});

export type RunConfig = z.infer<typeof RunConfigSchema>;
export type EmbeddedServiceOptions = z.infer<typeof EmbeddedSchema>;

/** A config built by hand (flags, a suite's blocks, the library, a derived run) checked as one: the same parse for all. */
/** What the schema takes: a config before its defaults and checks (the flags' builder returns it, run-flags.ts). */
export type RunConfigInput = z.input<typeof RunConfigSchema>;

export function parseRunConfig(config: unknown): RunConfig {
  return RunConfigSchema.parse(config);
}

/** A derived run: the config with whole sections replaced (never a list of fields to clear). */
export function withSections(config: RunConfig, sections: Partial<RunConfig>): RunConfig {
  return { ...config, ...sections };
}

/** run.json's `config`: the config as asked, secrets removed (the keys, the grader's cache, an output's credentials) and the load left out (`load.spec` holds it). */
export function recordableConfig(c: RunConfig): RecordedRunConfig {
  const { apiKey: _key, ...target } = c.target;
  const { apiKey: _graderKey, cacheDir: _cache, embeddings, ...grader } = c.grader;
  const { baselineSuite: _baseline, ...gates } = c.gates;
  // The label is run.json's own `label`; the tool's version its `tool`.
  const { label: _label, toolVersion: _version, ...record } = c.record;
  const recorded: RecordedRunConfig = {
    target, plan: c.plan, request: c.request, budget: c.budget, stop: c.stop, gates,
    // An endpoint's user and password are sent, never recorded.
    outputs: { ...c.outputs, ...(c.outputs.live ? { live: recordableOutputs(c.outputs.live) } : {}) },
    embedded: c.embedded,
    grader: { ...grader, ...(embeddings ? { embeddings: { baseUrl: embeddings.baseUrl, model: embeddings.model } } : {}) },
    placement: c.placement, record,
  };
  // As JSON holds it: no undefined fields.
  return RecordedRunConfigSchema.parse(JSON.parse(JSON.stringify(recorded)));
}
