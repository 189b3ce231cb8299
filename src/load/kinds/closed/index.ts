// The closed loop (k6 constant-vus over the plan once): `concurrency` units in flight until the plan
// is done. Its executor is the runner's default loop (runner/loop/closed.ts).
import { z } from 'zod';
import type { ClosedLoad } from '../../../domain/load.js';
import { closedLoop } from '../../../runner/loop/closed.js';
import type { LoadKind } from '../../kind.js';
import { commonOf, commonShape, whole } from '../../schemas.js';

/** A closed loop below this many in flight is one event loop's work (the default: one worker). */
export const ONE_LOOP_CONCURRENCY = 256;

export const closedKind: LoadKind<ClosedLoad> = {
  kind: 'closed',
  summary: 'closed loop: --concurrency units in flight until the plan is sent once',
  triggers: [],
  // --max-in-flight bounds an open loop; a closed loop's bound is its concurrency, so it says nothing here.
  accepts: ['concurrency', 'warmupMs', 'maxInFlight', 'shard', 'resume'],
  clash: () => 'a closed loop has no other load kind to clash with',
  schema: z.object({ kind: z.literal('closed'), concurrency: whole, ...commonShape }),
  build: (input) => ({ kind: 'closed', concurrency: input.concurrency, ...commonOf(input) }),
  loop: (spec) => closedLoop(spec.concurrency),
  timeBound: false,
  workerPlaces: (spec) => ({ count: spec.concurrency, flag: '--concurrency', word: 'slot', oneLoopBelow: ONE_LOOP_CONCURRENCY }),
  describe: () => null,
  concurrency: (spec) => spec.concurrency,
};
