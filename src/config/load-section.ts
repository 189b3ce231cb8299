// The run config's load section: the load as asked (flags, the suite's `load:` block under them) or
// a spec fixed whole, and the spec it stands for (src/load/ builds and checks it).
import type { ClosedLoad, LoadSpec } from '../domain/load.js';
import { buildLoadSpec, specConcurrency, validateSpec, type LoadInput } from '../load/index.js';
import { RUN_DEFAULTS } from './defaults.js';
import type { LoadAsked, LoadSection, RunConfig } from './run-config.js';

/** A closed loop of `concurrency` units in flight (the default load). */
export function closedLoad(concurrency: number = RUN_DEFAULTS.concurrency): { spec: ClosedLoad } {
  return { spec: { kind: 'closed', concurrency } };
}

/** The load as asked by flags alone (the default closed loop when nothing else is asked). */
export function askedLoad(asked: Partial<LoadAsked> = {}): { asked: LoadAsked } {
  return { asked: { concurrency: RUN_DEFAULTS.concurrency, ...asked } };
}

/** src/load/'s input of an asked section, with the run's shard and resume (some kinds refuse them). */
export function loadInputOf(asked: LoadAsked, config: Pick<RunConfig, 'placement'>): LoadInput {
  const input: LoadInput = { ...asked };
  if (config.placement.shard !== undefined) input.shard = true;
  if (config.placement.resumeDir !== undefined) input.resume = true;
  return input;
}

/** The run's spec: the section's own, or built from what it asks (every load rule checked). */
export function specOf(config: Pick<RunConfig, 'load' | 'placement'>): LoadSpec {
  const load: LoadSection = config.load;
  return 'spec' in load ? validateSpec(load.spec) : buildLoadSpec(loadInputOf(load.asked, config));
}

/** The closed loop's concurrency the run was asked for (an open loop's default bound on in-flight starts reads it). */
export function askedConcurrency(load: LoadSection): number {
  if ('asked' in load) return load.asked.concurrency;
  return specConcurrency(load.spec) ?? RUN_DEFAULTS.concurrency;
}
