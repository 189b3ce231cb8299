// The closed loop (k6 constant-vus over the plan once): `concurrency` units in flight until the plan is done.
import { z } from 'zod';
import type { ClosedLoad } from '../domain/load.js';
import type { LoadKindDef } from './kind.js';
import { commonOf, commonShape, whole } from './schemas.js';

export const closedKind: LoadKindDef<ClosedLoad> = {
  kind: 'closed',
  summary: 'closed loop: --concurrency units in flight until the plan is sent once',
  triggers: [],
  // --max-in-flight bounds an open loop; a closed loop's bound is its concurrency, so it says nothing here.
  accepts: ['concurrency', 'warmupMs', 'maxInFlight', 'shard', 'resume'],
  clash: () => 'a closed loop has no other load kind to clash with',
  schema: z.object({ kind: z.literal('closed'), concurrency: whole, ...commonShape }),
  build: (input) => ({ kind: 'closed', concurrency: input.concurrency, ...commonOf(input) }),
};
