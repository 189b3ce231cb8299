// A suite's blocks in the run config: its `load:` block gives the load when no flag does. Flags win:
// any flag of a load's shape (--rate, --duration, --stages, --start-rate, --concurrency-stages,
// --sweep, --slo) replaces the suite's whole shape (a suite ramp and a flag rate never mix); the
// other keys go one by one. A load fixed whole (a derived run's) keeps its own.
import type { SuiteLoad } from '../domain/suite.js';
import { suiteLoadAsked } from '../suite/load-block.js';
import { RUN_DEFAULTS } from './defaults.js';
import type { LoadAsked, LoadSection, RunConfig } from './run-config.js';

/** The keys of a load's shape: given by a flag, none of the suite's apply. */
const SHAPE_KEYS = ['rate', 'durationMs', 'stages', 'startRate', 'concurrencyStages', 'sweep', 'slo'] as const satisfies readonly (keyof LoadAsked)[];

function mergedLoad(section: LoadSection, load: SuiteLoad): LoadSection {
  if ('spec' in section) return section;
  const flags = section.asked;
  const suite = suiteLoadAsked(load);
  const flagsGiveShape = SHAPE_KEYS.some((key) => flags[key] !== undefined);
  const asked: Record<string, unknown> = { ...flags };
  for (const [key, value] of Object.entries(suite)) {
    const shape = (SHAPE_KEYS as readonly string[]).includes(key);
    // --concurrency at its default says nothing: the suite's concurrency stands.
    const unset = key === 'concurrency' ? flags.concurrency === RUN_DEFAULTS.concurrency : asked[key] === undefined;
    if (shape ? !flagsGiveShape : unset) asked[key] = value;
  }
  return { asked: asked as unknown as LoadAsked };
}

export function withSuiteLoad(config: RunConfig, load: SuiteLoad | undefined): RunConfig {
  if (load === undefined) return config;
  const merged: RunConfig = { ...config, load: mergedLoad(config.load, load), embedded: { ...config.embedded } };
  if (merged.embedded.degradeQuality === undefined && load.degrade_quality !== undefined) merged.embedded.degradeQuality = load.degrade_quality;
  // `--output` given replaces the suite's outputs (as k6's -o does a script's).
  if (merged.outputs === undefined && load.outputs !== undefined) merged.outputs = load.outputs;
  return merged;
}
