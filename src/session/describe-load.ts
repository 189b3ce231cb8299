// The console header's words for a run's load, read from its LoadSpec (src/load/): what is planned,
// and the in-flight cap that may hold starts back.
import type { LoadSpec } from '../domain/load.js';
import { arrivalProfileOf, defaultMaxInFlight, workersProfileOf } from '../load/index.js';
import type { Shard } from '../plan/types.js';
import { plannedStarts, profileDurationMs } from '../runner/arrivals.js';
import { GIVE_UP_LATE_MS } from '../runner/loop/skeleton.js';

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}s`;

/**
 * The header's load line; null for a closed loop, whose header is its request count. `concurrency`
 * only tells whether the cap is --max-in-flight's default (the larger of it and 64).
 */
export function describeLoad(spec: LoadSpec, run: { concurrency: number; shard?: Shard | null }): string | null {
  if (spec.kind === 'closed') return null;
  if (spec.kind === 'ramping-workers') {
    const stages = spec.stages.map((s) => `${seconds(s.durationMs)}→${s.targetPerS}`).join(', ');
    const peak = Math.max(...spec.stages.map((s) => s.targetPerS));
    const n = spec.stages.length;
    return `--concurrency-stages: ${n} stage${n === 1 ? '' : 's'} of workers from 0 (${stages}), up to ${peak} workers over ${seconds(profileDurationMs(workersProfileOf(spec)!))}, cycling through the plan (no target rate: a worker starts a request when its last one ends)`;
  }
  const defaulted = spec.maxInFlight === defaultMaxInFlight({ concurrency: run.concurrency }) ? ', default the larger of --concurrency and 64' : '';
  const cap = `at most ${spec.maxInFlight} in flight (--max-in-flight${defaulted}); starts held past it are sent late, and over ${seconds(GIVE_UP_LATE_MS)} late or never sent they count as dropped`;
  if (spec.kind === 'sweep') return `sweep: two probes, then ${spec.rates} rates of ${seconds(spec.rateMs)} each, ${cap}`;
  const profile = arrivalProfileOf(spec)!;
  const share = run.shard ? ` (shard ${run.shard.index}/${run.shard.count})` : '';
  return `${plannedStarts(profile)} planned starts over ${seconds(profileDurationMs(profile))}${share}, ${cap}`;
}
