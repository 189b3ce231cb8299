// The traffic-log replay (`--traffic FILE`, a suite's `load: { traffic: FILE }`): each record of a
// production log sent at its recorded instant (scaled by --time-scale, or to --traffic-rate), a
// conversation's turns at their own pace, cut by --duration, repeated by --loop; an open loop's
// accounting (held past --max-in-flight, sent late or dropped). Stages are the log's own windows.
import { z } from 'zod';
import type { StageWindow } from '../../../domain/load.js';
import { GIVE_UP_LATE_MS } from '../../../runner/loop/skeleton.js';
import { defaultMaxInFlight, LoadFieldError, type FieldNames, type LoadInput } from '../../input.js';
import type { LoadKind, LoopContext } from '../../kind.js';
import { commonOf, commonShape, positive, seconds, whole } from '../../schemas.js';
import { shardParts, trafficLoop, trafficResumeClockMs, type TrafficLoopSpec } from './executor.js';
import { describeShape, type LogShape } from './log-shape.js';
import type { TrafficLoad } from './spec.js';
import { changedLog, replayClash } from './resume-clash.js';
import { scaleForRate } from './schedule.js';

export type { TrafficLoad } from './spec.js';

declare module '../../../domain/load.js' {
  interface LoadSpecs {
    traffic: TrafficLoad;
  }
}

const shapeSchema = z.object({
  records: whole, spanMs: z.number().nonnegative(), meanRatePerS: z.number().nullable(), windowMs: positive, startsPerWindow: z.array(z.number().int().nonnegative()),
  thinkTime: z.object({ conversations: z.number(), one_time: z.number(), turns_per_conversation: z.unknown(), gap_ms: z.unknown() }).passthrough(),
}).passthrough() as unknown as z.ZodType<LogShape>;

function timeScaleOf(input: LoadInput, shape: LogShape, n: FieldNames): number {
  if (input.timeScale !== undefined && input.trafficRate !== undefined) {
    throw new LoadFieldError('trafficRate', `${n.timeScale} and ${n.trafficRate} both set the replay's speed: give one`, n);
  }
  if (input.trafficRate === undefined) return input.timeScale ?? 1;
  if (shape.meanRatePerS === null) throw new LoadFieldError('trafficRate', `the log's records share one instant: it has no rate for ${n.trafficRate} to scale; use ${n.timeScale}`, n);
  return scaleForRate(input.trafficRate, shape.meanRatePerS);
}

/** The log's windows on the replay's clock: per window of recorded time, its starts per second; cut by the duration, repeated by --loop. */
export function trafficStages(spec: TrafficLoad, share = 1): StageWindow[] {
  const { shape, timeScale } = spec;
  const windowMs = shape.windowMs / timeScale;
  const passMs = (shape.spanMs + (shape.records > 1 ? shape.spanMs / (shape.records - 1) : 1000)) / timeScale;
  const endMs = spec.durationMs ?? (shape.spanMs / timeScale + 1);
  const stages: StageWindow[] = [];
  for (let passStartMs = 0; passStartMs < endMs; passStartMs += passMs) {
    for (const [i, starts] of shape.startsPerWindow.entries()) {
      const start = passStartMs + i * windowMs;
      if (start >= endMs) break;
      const end = Math.min(endMs, start + windowMs, passStartMs + passMs);
      const rate = (starts / (windowMs / 1000)) * share;
      stages.push({ index: stages.length, from_rate: rate, to_rate: rate, start_ms: Math.round(start), end_ms: Math.round(end) });
    }
    if (!spec.loop) break;
  }
  return stages;
}

/** The executor's spec of a replay: the recorded spec and what the run adds (its model, request layers, shard, and a resume's records done). */
function loopSpecOf(spec: TrafficLoad, run: LoopContext): TrafficLoopSpec {
  return {
    file: spec.file, maxInFlight: spec.maxInFlight, ...(run.model !== undefined ? { model: run.model } : {}), ...(run.requestLayers !== undefined ? { requestLayers: run.requestLayers } : {}),
    ...(run.recorded !== undefined ? { recorded: run.recorded, conversationsGone: run.conversationsGone === true } : {}),
    ...(run.droppedBefore !== undefined ? { droppedBefore: run.droppedBefore } : {}),
    replay: {
      timeScale: spec.timeScale, parts: shardParts(run.shard),
      ...(spec.durationMs !== undefined ? { durationMs: spec.durationMs } : {}),
      ...(spec.loop ? { loop: { spanMs: spec.shape.spanMs } } : {}),
    },
  };
}

export const trafficKind: LoadKind<TrafficLoad> = {
  kind: 'traffic',
  summary: 'a traffic log replayed (--traffic FILE): each record at its recorded instant, conversations at their own pace',
  triggers: ['traffic'],
  accepts: ['concurrency', 'traffic', 'timeScale', 'trafficRate', 'loop', 'trafficWindowMs', 'durationMs', 'maxInFlight', 'warmupMs', 'shard'],
  clash: (other, n) => `${n.traffic} replays a log at its own instants; leave out ${other}`,
  schema: z.object({
    kind: z.literal('traffic'), file: z.string().min(1), shape: shapeSchema, timeScale: positive, trafficRate: positive.optional(), durationMs: positive.optional(), loop: z.boolean(),
    maxInFlight: whole, ...commonShape,
  }),
  paths: { file: 'traffic' },
  build(input, n) {
    const source = input.traffic!;
    if (source.shape.records === 0) throw new LoadFieldError('traffic', `${source.file} holds no record: nothing to replay`, n);
    if (input.loop === true && input.durationMs === undefined) throw new LoadFieldError('loop', `${n.loop} replays the log again and again: give ${n.durationMs} to say when to stop`, n);
    if (input.trafficWindowMs !== undefined && input.trafficWindowMs !== source.shape.windowMs) {
      throw new LoadFieldError('trafficWindowMs', `the log was read with windows of ${seconds(source.shape.windowMs)}`, n);
    }
    return {
      kind: 'traffic', file: source.file, shape: source.shape, timeScale: timeScaleOf(input, source.shape, n),
      ...(input.trafficRate !== undefined ? { trafficRate: input.trafficRate } : {}),
      ...(input.durationMs !== undefined ? { durationMs: input.durationMs } : {}),
      loop: input.loop === true, maxInFlight: defaultMaxInFlight(input), ...commonOf(input),
    };
  },
  // A resume sends the records with neither a result line nor a drop (resume.ts), the log and the replay as recorded, on the log's clock.
  resumeClash: (recorded, input, n, allowChanged) => (allowChanged ? null : changedLog(recorded)) ?? replayClash(recorded, input, n),
  loop: (spec, run) => trafficLoop(loopSpecOf(spec, run)),
  resumeClockMs: (spec, run) => trafficResumeClockMs(loopSpecOf(spec, run)),
  timeBound: true,
  ownConversations: true,
  oneModel: 'a traffic record is sent once, with its own model or the one --models names; give one model (or a `model` per record)',
  startsOnWholeSecond: true,
  workerPlaces: (spec) => ({ count: spec.maxInFlight, flag: '--max-in-flight', word: 'place' }),
  describe(spec, run) {
    const share = run.shard ? ` (shard ${run.shard.index}/${run.shard.count}: its part of the conversations)` : '';
    const cut = spec.durationMs !== undefined ? `, cut at ${seconds(spec.durationMs)}${spec.loop ? ' (looped)' : ''}` : '';
    return [
      ...describeShape(spec.shape, spec.timeScale),
      `    replayed${share}${cut}: at most ${spec.maxInFlight} in flight (--max-in-flight); starts held past it are sent late, and over ${seconds(GIVE_UP_LATE_MS)} late they count as dropped`,
    ].join('\n');
  },
  schedule: (spec, shardCount) => ({ stages: trafficStages(spec, 1 / shardCount), max_in_flight: spec.maxInFlight }),
  maxInFlight: (spec) => spec.maxInFlight,
};
