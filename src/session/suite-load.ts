// A suite's `load:` block as run options: it gives the load shape when no flag does. Flags win:
// any of --rate, --duration, --stages, --start-rate, --concurrency-stages replaces the suite's
// whole arrival shape (a suite ramp and a flag rate never mix); the other keys go one by one.
import type { SuiteLoad } from '../domain/suite.js';
import type { RunSessionOptions } from '../config/run-config.js';

function flagsGiveShape(o: RunSessionOptions): boolean {
  return o.rate !== undefined || o.durationMs !== undefined || o.stages !== undefined || o.startRate !== undefined || o.concurrencyStages !== undefined;
}

export function withSuiteLoad(options: RunSessionOptions, load: SuiteLoad | undefined): RunSessionOptions {
  if (load === undefined || options.ignoreSuiteLoad) return options;
  const merged: RunSessionOptions = { ...options, embedded: { ...options.embedded } };
  if (!flagsGiveShape(options)) {
    if (load.stages !== undefined) merged.stages = load.stages;
    if (load.start_rate !== undefined) merged.startRate = load.start_rate;
    if (load.rate !== undefined) merged.rate = load.rate;
    if (load.duration_ms !== undefined) merged.durationMs = load.duration_ms;
  }
  if (merged.arrival === undefined && load.arrival !== undefined) merged.arrival = load.arrival;
  if (merged.mix === undefined && load.mix !== undefined) merged.mix = load.mix;
  if (merged.maxInFlight === undefined && load.max_in_flight !== undefined) merged.maxInFlight = load.max_in_flight;
  if (merged.warmupMs === undefined && load.warmup_ms !== undefined) merged.warmupMs = load.warmup_ms;
  if (merged.embedded.degradeQuality === undefined && load.degrade_quality !== undefined) merged.embedded.degradeQuality = load.degrade_quality;
  // `--output` given replaces the suite's outputs (as k6's -o does a script's).
  if (merged.outputs === undefined && load.outputs !== undefined) merged.outputs = load.outputs;
  return merged;
}
