// A suite's blocks in the run config: its `load:` block gives the load when no flag does. Flags win:
// any flag of a load's shape (--rate, --duration, --stages, --start-rate, --concurrency-stages,
// --sweep, --slo) replaces the suite's whole shape (a suite ramp and a flag rate never mix); the
// other keys go one by one. A suite's `traffic:` log is kept under a flag --duration (it cuts the
// replay); its replay keys go with it. A load fixed whole (a derived run's) keeps its own.
import type { SuiteLoad } from '../domain/suite.js';
import { suiteLoadAsked } from '../suite/load-block.js';
import { RUN_DEFAULTS } from './defaults.js';
import type { LoadAsked, LoadSection, RunConfig } from './run-config.js';

/** The keys of a load's shape: given by a flag, none of the suite's apply. */
const SHAPE_KEYS = ['rate', 'durationMs', 'stages', 'startRate', 'concurrencyStages', 'sweep', 'slo', 'traffic'] as const satisfies readonly (keyof LoadAsked)[];

/** The keys of a replay: with the suite's log, they are its shape. */
const TRAFFIC_KEYS = ['timeScale', 'trafficRate', 'loop', 'trafficWindowMs'] as const satisfies readonly (keyof LoadAsked)[];

/** A flag's shape other than --duration (which cuts a replay, keeping the suite's log). */
function replacesLog(asked: Partial<LoadAsked>): boolean {
  return SHAPE_KEYS.some((key) => key !== 'durationMs' && asked[key] !== undefined);
}

function mergedLoad(section: LoadSection, load: SuiteLoad): LoadSection {
  if ('spec' in section) return section;
  const flags = section.asked;
  const suite = suiteLoadAsked(load);
  const flagsGiveShape = SHAPE_KEYS.some((key) => flags[key] !== undefined);
  const asked: Record<string, unknown> = { ...flags };
  for (const [key, value] of Object.entries(suite)) {
    // --concurrency at its default says nothing: the suite's concurrency stands.
    const unset = key === 'concurrency' ? flags.concurrency === RUN_DEFAULTS.concurrency : asked[key] === undefined;
    // A replay's keys (time_scale, loop, …) go with a log: dropped when a flag's shape replaces the suite's log, one by one otherwise.
    if ((TRAFFIC_KEYS as readonly string[]).includes(key)) {
      if (unset && (flags.traffic !== undefined || !replacesLog(flags))) asked[key] = value;
      continue;
    }
    const shape = (SHAPE_KEYS as readonly string[]).includes(key);
    if (shape ? !flagsGiveShape : unset) asked[key] = value;
  }
  return { asked: asked as unknown as LoadAsked };
}

export function withSuiteLoad(config: RunConfig, load: SuiteLoad | undefined): RunConfig {
  if (load === undefined) return config;
  const merged: RunConfig = { ...config, load: mergedLoad(config.load, load), embedded: { ...config.embedded } };
  if (merged.embedded.degradeQuality === undefined && load.degrade_quality !== undefined) merged.embedded.degradeQuality = load.degrade_quality;
  // `--output` given replaces the suite's outputs (as k6's -o does a script's).
  if (merged.outputs.live === undefined && load.outputs !== undefined) merged.outputs = { ...merged.outputs, live: load.outputs };
  return merged;
}

/**
 * A suite's `load: { traffic: FILE }`, read (its shape, one pass) when the run starts, as `--traffic`
 * is: only when the flags give no load shape of their own (a flag's shape replaces the suite's whole).
 */
export async function withSuiteTraffic(config: RunConfig, load: SuiteLoad | undefined): Promise<RunConfig> {
  if (load?.traffic === undefined || 'spec' in config.load) return config;
  const asked = config.load.asked;
  if (replacesLog(asked)) return config;
  const { readTrafficSource } = await import('../load/kinds/traffic/log-shape.js');
  return { ...config, load: { asked: { ...asked, traffic: await readTrafficSource(load.traffic, asked.trafficWindowMs) } } };
}
