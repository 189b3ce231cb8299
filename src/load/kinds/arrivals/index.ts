// The open loop (k6 constant- and ramping-arrival-rate): starts on a schedule (--rate for
// --duration, or --stages from --start-rate), evenly spaced or Poisson, at most --max-in-flight outstanding.
import { z } from 'zod';
import type { ArrivalRate, ArrivalsLoad } from '../../../domain/load.js';
import { arrivalSchedule, plannedStarts, profileDurationMs, stageWindows } from '../../../runner/arrivals.js';
import { GIVE_UP_LATE_MS } from '../../../runner/loop/skeleton.js';
import { defaultMaxInFlight, LoadFieldError, type FieldNames, type LoadInput } from '../../input.js';
import type { LoadKind } from '../../kind.js';
import { arrivalSchema, commonOf, commonShape, positive, seconds, stagesSchema, whole } from '../../schemas.js';
import { arrivalsLoop } from './executor.js';

const rateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('constant'), ratePerS: positive, durationMs: positive }),
  z.object({ kind: z.literal('stages'), startRatePerS: z.number().nonnegative('must be 0 or more'), stages: stagesSchema }),
]);

function rateOf(input: LoadInput, n: FieldNames): ArrivalRate {
  const { rate, durationMs, stages, startRate } = input;
  if (stages !== undefined && rate !== undefined) {
    throw new LoadFieldError('rate', `${n.stages} and ${n.rate} are two arrival rates: give one (a constant rate is one stage, e.g. ${n.stages} 1m:20)`, n);
  }
  if (stages !== undefined && durationMs !== undefined) throw new LoadFieldError('durationMs', `${n.stages} carries its own durations; leave out ${n.durationMs}`, n);
  if (startRate !== undefined && stages === undefined) throw new LoadFieldError('startRate', `${n.startRate} is where ${n.stages} ramps from; it needs ${n.stages}`, n);
  if (stages !== undefined) return { kind: 'stages', startRatePerS: startRate ?? 0, stages };
  if (durationMs === undefined) throw new LoadFieldError('rate', `${n.rate} needs ${n.durationMs} (for how long to keep the arrival rate), e.g. ${n.durationMs} 60s`, n);
  return { kind: 'constant', ratePerS: rate!, durationMs };
}

/**
 * The header's words for an open loop's bound: `concurrency` only tells whether the cap is
 * --max-in-flight's default (the larger of it and 64). A sweep's rates say the same.
 */
export function inFlightCapWords(maxInFlight: number, concurrency: number): string {
  const defaulted = maxInFlight === defaultMaxInFlight({ concurrency }) ? ', default the larger of --concurrency and 64' : '';
  return `at most ${maxInFlight} in flight (--max-in-flight${defaulted}); starts held past it are sent late, and over ${seconds(GIVE_UP_LATE_MS)} late or never sent they count as dropped`;
}

export const arrivalsKind: LoadKind<ArrivalsLoad> = {
  kind: 'arrivals',
  summary: 'open loop: starts on a schedule (--rate for --duration, or --stages), whatever the service answers',
  triggers: ['rate', 'stages'],
  accepts: ['concurrency', 'rate', 'durationMs', 'stages', 'startRate', 'arrival', 'mix', 'maxInFlight', 'warmupMs', 'shard'],
  clash: (other, n) => `${n.stages} and ${other} are two arrival rates: give one`,
  schema: z.object({ kind: z.literal('arrivals'), rate: rateSchema, arrival: arrivalSchema, maxInFlight: whole, ...commonShape }).superRefine((spec, ctx) => {
    // A schedule that starts nothing would pass having sent nothing.
    if (plannedStarts(spec.rate) >= 1) return;
    const path = spec.rate.kind === 'stages' ? ['rate', 'stages'] : ['rate', 'durationMs'];
    const message = spec.rate.kind === 'stages' ? 'plans no start at all (every target is 0)' : `${spec.rate.ratePerS}/s for ${spec.rate.durationMs / 1000}s starts no request at all`;
    ctx.addIssue({ code: 'custom', path, message });
  }),
  build: (input, n) => ({
    kind: 'arrivals', rate: rateOf(input, n), arrival: input.arrival ?? 'constant', maxInFlight: defaultMaxInFlight(input), ...commonOf(input),
  }),
  noResume: 'an open-loop (--rate, --stages) run cannot be resumed: its schedule is tied to its start, which is gone; start a new run',
  loop(spec, run) {
    const schedule = arrivalSchedule(spec.rate, { arrival: spec.arrival, ...(run.seed !== undefined ? { seed: run.seed } : {}) });
    return arrivalsLoop({ schedule, durationMs: profileDurationMs(spec.rate), maxInFlight: spec.maxInFlight, segment: run.shard });
  },
  timeBound: true,
  shardsSchedule: true,
  startsOnWholeSecond: true,
  workerPlaces: (spec) => ({ count: spec.maxInFlight, flag: '--max-in-flight', word: 'place' }),
  describe(spec, run) {
    const share = run.shard ? ` (shard ${run.shard.index}/${run.shard.count})` : '';
    return `${plannedStarts(spec.rate)} planned starts over ${seconds(profileDurationMs(spec.rate))}${share}, ${inFlightCapWords(spec.maxInFlight, run.concurrency)}`;
  },
  arrivalProfile: (spec) => spec.rate,
  // A shard of N runs 1/N of every stage's rate (its execution segment); `kbbench merge` adds the shards' rates back up.
  schedule(spec, shardCount) {
    const share = 1 / shardCount;
    return { stages: stageWindows(spec.rate).map((w) => ({ ...w, from_rate: w.from_rate * share, to_rate: w.to_rate * share })), max_in_flight: spec.maxInFlight };
  },
  maxInFlight: (spec) => spec.maxInFlight,
};
