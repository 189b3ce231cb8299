// The closed loop, ramping (k6 ramping-vus, --concurrency-stages): workers follow the stages from 0,
// cycling through the plan until the stages end.
import { z } from 'zod';
import type { RampingWorkersLoad } from '../domain/load.js';
import type { LoadKindDef } from './kind.js';
import { commonOf, commonShape, stagesSchema } from './schemas.js';

export const rampingWorkersKind: LoadKindDef<RampingWorkersLoad> = {
  kind: 'ramping-workers',
  summary: 'closed loop, ramping: workers follow --concurrency-stages from 0, cycling the plan',
  triggers: ['concurrencyStages'],
  accepts: ['concurrency', 'concurrencyStages', 'mix', 'warmupMs', 'maxInFlight', 'shard', 'resume'],
  clash: (other, n) => `${n.concurrencyStages} ramps the closed loop's workers; ${other} belongs to an open loop's arrivals: give one`,
  schema: z.object({ kind: z.literal('ramping-workers'), stages: stagesSchema, ...commonShape }),
  paths: { stages: 'concurrencyStages' },
  build: (input) => ({ kind: 'ramping-workers', stages: input.concurrencyStages!, ...commonOf(input) }),
  noResume: 'a --concurrency-stages run cannot be resumed: its stages are a schedule from its start, which is gone; start a new run',
  volumeUnknown: 'a ramp of workers cycles the plan until its stages end, as fast as answers come',
};
