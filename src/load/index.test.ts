import { describe, expect, it } from 'vitest';
import type { LoadSpec } from '../domain/load.js';
import { buildLoadSpec, FLAG_NAMES, LOAD_KINDS, LoadFieldError, SUITE_NAMES, validateSpec, type LoadInput } from './index.js';

const base: LoadInput = { concurrency: 4 };
const stages = [{ durationMs: 1000, targetPerS: 5 }];

function fieldOf(input: LoadInput, names = FLAG_NAMES): [string | undefined, string] {
  try {
    buildLoadSpec(input, names);
  } catch (error) {
    expect(error).toBeInstanceOf(LoadFieldError);
    return [(error as LoadFieldError).location.field, (error as LoadFieldError).message];
  }
  throw new Error('expected a load error');
}

describe('buildLoadSpec: one spec per kind', () => {
  it.each<[string, LoadInput, LoadSpec]>([
    ['no load flag: the closed loop', { concurrency: 8 }, { kind: 'closed', concurrency: 8 }],
    ['--concurrency-stages', { ...base, concurrencyStages: stages, mix: 'shuffle' }, { kind: 'ramping-workers', stages, mix: 'shuffle' }],
    ['--rate with --duration', { ...base, rate: 3, durationMs: 2000 }, { kind: 'arrivals', rate: { kind: 'constant', ratePerS: 3, durationMs: 2000 }, arrival: 'constant', maxInFlight: 64 }],
    ['--stages from --start-rate, Poisson, a bound', { concurrency: 100, stages, startRate: 2, arrival: 'poisson', warmupMs: 500 }, {
      kind: 'arrivals', rate: { kind: 'stages', startRatePerS: 2, stages }, arrival: 'poisson', maxInFlight: 100, warmupMs: 500,
    }],
    ['--sweep', { ...base, sweep: 3, durationMs: 30_000, maxInFlight: 16, slo: ['ttfc_ms=p(95)<2000'] }, {
      kind: 'sweep', rates: 3, rateMs: 30_000, probeMs: 10_000, saturationWorkers: 16, arrival: 'constant', maxInFlight: 16, slo: { ttfc_ms: ['p(95)<2000'] },
    }],
  ])('%s', (_, input, spec) => {
    expect(buildLoadSpec(input)).toEqual(spec);
    // The spec is its kind's own schema's: what run.json records reads back the same.
    expect(validateSpec(spec)).toEqual(spec);
  });

  it('names a kind for every spec kind, and each kind says whether a resume can continue it', () => {
    expect(Object.keys(LOAD_KINDS).sort()).toEqual(['arrivals', 'closed', 'ramping-workers', 'sweep', 'traffic']);
    expect(Object.values(LOAD_KINDS).filter((k) => k.noResume === undefined).map((k) => k.kind).sort()).toEqual(['closed', 'traffic']);
  });
});

describe('each rule once, naming the flag or the suite key at fault', () => {
  it.each<[string, LoadInput, string, RegExp]>([
    ['two kinds: a sweep and a rate', { ...base, sweep: 2, rate: 3, durationMs: 1000 }, '--sweep', /leave out --rate/],
    ['two kinds: worker stages and arrival stages', { ...base, concurrencyStages: stages, stages }, '--concurrency-stages', /--stages belongs to an open loop's arrivals: give one/],
    ['--stages with --rate', { ...base, stages, rate: 5 }, '--rate', /two arrival rates: give one/],
    ['--stages with --duration', { ...base, stages, durationMs: 1000 }, '--duration', /leave out --duration/],
    ['--rate without --duration', { ...base, rate: 5 }, '--rate', /needs --duration/],
    ['--rate that starts nothing', { ...base, rate: 0.5, durationMs: 1000 }, '--duration', /starts no request/],
    ['stages that start nothing', { ...base, stages: [{ durationMs: 1000, targetPerS: 0 }] }, '--stages', /plans no start/],
    ['--start-rate alone', { ...base, startRate: 1 }, '--start-rate', /needs --stages/],
    ['--duration on a closed loop', { ...base, durationMs: 1000 }, '--duration', /goes with --rate/],
    ['--arrival poisson on a closed loop', { ...base, arrival: 'poisson' }, '--arrival', /open-loop schedule/],
    ['--mix on a closed loop', { ...base, mix: 'weighted' }, '--mix', /time-bound run/],
    ['--slo without --sweep', { ...base, slo: ['ttfc_ms=p(95)<1'] }, '--slo', /judged per rate of a sweep/],
    ['--sweep with --warmup', { ...base, sweep: 2, durationMs: 1000, warmupMs: 10 }, '--warmup', /warms up with its probes/],
    ['--sweep with --shard', { ...base, sweep: 2, durationMs: 1000, shard: true }, '--shard', /runs in one process/],
    ['--sweep of too many rates', { ...base, sweep: 101, durationMs: 1000 }, '--sweep', /at most 100/],
    ['--resume of an open loop', { ...base, rate: 2, durationMs: 1000, resume: true }, '--resume', /cannot be resumed/],
    ['--resume of worker stages', { ...base, concurrencyStages: stages, resume: true }, '--resume', /cannot be resumed/],
  ])('%s', (_, input, field, message) => {
    const [at, said] = fieldOf(input);
    expect(at).toBe(field);
    expect(said).toMatch(message);
  });

  it('the same rule in a suite\'s words', () => {
    expect(fieldOf({ ...base, stages, rate: 5 }, SUITE_NAMES)).toEqual(['rate', 'stages and rate are two arrival rates: give one (a constant rate is one stage, e.g. stages 1m:20)']);
    expect(fieldOf({ ...base, startRate: 1, rate: 2, durationMs: 1000 }, SUITE_NAMES)[0]).toBe('start_rate');
  });

  it('a closed loop may be resumed, sharded and bounded', () => {
    expect(buildLoadSpec({ ...base, resume: true, shard: true, maxInFlight: 3 })).toEqual({ kind: 'closed', concurrency: 4 });
  });

  it('a spec read back (run.json) is checked by its kind\'s schema', () => {
    expect(() => validateSpec({ kind: 'closed', concurrency: 0 })).toThrow(/must be 1 or more/);
    expect(() => validateSpec({ kind: 'closed', concurrency: 0 })).toThrow(expect.objectContaining({ location: { field: '--concurrency' } }));
    expect(() => validateSpec({ kind: 'arrivals', rate: { kind: 'constant', ratePerS: 2, durationMs: -1 }, arrival: 'constant', maxInFlight: 4 })).toThrow(LoadFieldError);
  });
});
