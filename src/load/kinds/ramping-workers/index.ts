// The closed loop, ramping (k6 ramping-vus, --concurrency-stages): workers follow the stages from 0,
// cycling through the plan until the stages end.
import { z } from 'zod';
import type { RampingWorkersLoad } from '../../../domain/load.js';
import { profileDurationMs, stageWindows, type LoadProfile } from '../../../runner/arrivals.js';
import type { LoadKind } from '../../kind.js';
import { commonOf, commonShape, seconds, stagesSchema } from '../../schemas.js';
import { rampingWorkersLoop } from './executor.js';

/** --concurrency-stages as a profile whose "rate" is a number of workers (k6 ramping-vus starts from 0). */
const workersProfile = (spec: RampingWorkersLoad): LoadProfile => ({ kind: 'stages', startRatePerS: 0, stages: spec.stages });

export const rampingWorkersKind: LoadKind<RampingWorkersLoad> = {
  kind: 'ramping-workers',
  summary: 'closed loop, ramping: workers follow --concurrency-stages from 0, cycling the plan',
  triggers: ['concurrencyStages'],
  accepts: ['concurrency', 'concurrencyStages', 'mix', 'warmupMs', 'maxInFlight', 'shard', 'resume'],
  clash: (other, n) => `${n.concurrencyStages} ramps the closed loop's workers; ${other} belongs to an open loop's arrivals: give one`,
  schema: z.object({ kind: z.literal('ramping-workers'), stages: stagesSchema, ...commonShape }),
  paths: { stages: 'concurrencyStages' },
  build: (input) => ({ kind: 'ramping-workers', stages: input.concurrencyStages!, ...commonOf(input) }),
  loop: (spec) => rampingWorkersLoop(workersProfile(spec)),
  timeBound: true,
  oneWorker: '--concurrency-stages ramps one pool of workers',
  noResume: 'a --concurrency-stages run cannot be resumed: its stages are a schedule from its start, which is gone; start a new run',
  volumeUnknown: 'a ramp of workers cycles the plan until its stages end, as fast as answers come',
  describe(spec) {
    const stages = spec.stages.map((s) => `${seconds(s.durationMs)}→${s.targetPerS}`).join(', ');
    const peak = Math.max(...spec.stages.map((s) => s.targetPerS));
    const n = spec.stages.length;
    return `--concurrency-stages: ${n} stage${n === 1 ? '' : 's'} of workers from 0 (${stages}), up to ${peak} workers over ${seconds(profileDurationMs(workersProfile(spec)))}, cycling through the plan (no target rate: a worker starts a request when its last one ends)`;
  },
  workersProfile,
  // Its stages are its workers' (every shard runs them all, so merge's sum is the workers of the whole run), its bound the peak of them.
  schedule(spec) {
    const stages = stageWindows(workersProfile(spec)).map((w) => ({ ...w, target_unit: 'workers' as const }));
    return { stages, max_in_flight: Math.max(1, ...stages.map((s) => s.to_rate)) };
  },
};
