// What a load spec is built from: the load fields of the flags (or of a suite's `load:` block), and
// the names each field goes by there, so one rule says the flag or the suite key at fault.
import { InputError } from '../domain/errors.js';
import type { ArrivalShape, LoadStageSpec, MixShape } from '../domain/load.js';
import type { LogShape } from './kinds/traffic/log-shape.js';

/** `--traffic FILE`: the log and its shape, read in one pass before the run (kinds/traffic/log-shape.ts). */
export interface TrafficSource {
  file: string;
  shape: LogShape;
}

export interface LoadInput {
  /** Always set: the closed loop's default applies when no flag gives it. */
  concurrency: number;
  rate?: number;
  durationMs?: number;
  stages?: LoadStageSpec[];
  startRate?: number;
  sweep?: number;
  slo?: string[];
  concurrencyStages?: LoadStageSpec[];
  arrival?: ArrivalShape;
  mix?: MixShape;
  maxInFlight?: number;
  warmupMs?: number;
  traffic?: TrafficSource;
  timeScale?: number;
  trafficRate?: number;
  loop?: boolean;
  trafficWindowMs?: number;
  /** `--shard` and `--resume` given: some kinds cannot run as a part, or be continued. */
  shard?: boolean;
  resume?: boolean;
}

export type LoadField = keyof LoadInput;
export type FieldNames = Record<LoadField, string>;

export const FLAG_NAMES: FieldNames = {
  concurrency: '--concurrency', rate: '--rate', durationMs: '--duration', stages: '--stages', startRate: '--start-rate',
  sweep: '--sweep', slo: '--slo', concurrencyStages: '--concurrency-stages', arrival: '--arrival', mix: '--mix',
  maxInFlight: '--max-in-flight', warmupMs: '--warmup', shard: '--shard', resume: '--resume',
  traffic: '--traffic', timeScale: '--time-scale', trafficRate: '--traffic-rate', loop: '--loop', trafficWindowMs: '--traffic-window',
};

/** A suite's `load:` block (suite/load-block.ts) names its keys in the suite's own words. */
export const SUITE_NAMES: FieldNames = {
  ...FLAG_NAMES, concurrency: 'concurrency', concurrencyStages: 'concurrency_stages', sweep: 'sweep', slo: 'slo', rate: 'rate', durationMs: 'duration', stages: 'stages', startRate: 'start_rate', arrival: 'arrival',
  mix: 'mix', maxInFlight: 'max_in_flight', warmupMs: 'warmup',
  traffic: 'traffic', timeScale: 'time_scale', trafficRate: 'traffic_rate', loop: 'loop', trafficWindowMs: 'traffic_window',
};

/** A load rule broken: an input error (exit 2) naming the field, which a suite maps back to its key. */
export class LoadFieldError extends InputError {
  constructor(
    readonly loadField: LoadField,
    message: string,
    names: FieldNames,
  ) {
    super(message, { field: names[loadField] });
  }
}

/** A field counts as given when it says something: the default arrival and mix say nothing. */
export function isGiven(input: LoadInput, field: LoadField): boolean {
  const value = input[field];
  if (field === 'concurrency') return false;
  if (field === 'arrival') return value !== undefined && value !== 'constant';
  if (field === 'mix') return value !== undefined && value !== 'sequential';
  if (field === 'shard' || field === 'resume' || field === 'loop') return value === true;
  return value !== undefined;
}

/** The open loop's bound on outstanding starts: --max-in-flight, else the larger of --concurrency and 64. */
export function defaultMaxInFlight(input: Pick<LoadInput, 'maxInFlight' | 'concurrency'>): number {
  return input.maxInFlight ?? Math.max(input.concurrency, 64);
}

export type { ArrivalShape, LoadStageSpec, MixShape };
