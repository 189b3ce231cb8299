// The open loop (k6 constant- and ramping-arrival-rate): starts on a schedule (--rate for
// --duration, or --stages from --start-rate), evenly spaced or Poisson, at most --max-in-flight outstanding.
import { z } from 'zod';
import type { ArrivalRate, ArrivalsLoad } from '../domain/load.js';
import { plannedStarts } from '../runner/arrivals.js';
import { defaultMaxInFlight, LoadFieldError, type FieldNames, type LoadInput } from './input.js';
import type { LoadKindDef } from './kind.js';
import { arrivalSchema, commonOf, commonShape, positive, stagesSchema, whole } from './schemas.js';

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

export const arrivalsKind: LoadKindDef<ArrivalsLoad> = {
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
};
