import { describe, expect, it } from 'vitest';
import type { RunSessionOptions } from './options.js';
import { checkLoadProfile, loadProfileOf } from './load-profile.js';

const base = { suitePath: 's.yaml', auth: 'header', repeat: 1, concurrency: 4, requestDefaults: {}, timeoutMs: 1000, retries: 0, reportsRoot: '/tmp', thresholdFlags: [], embedded: {}, toolVersion: 't' } as RunSessionOptions;
const stages = [{ durationMs: 1000, targetPerS: 5 }];

describe('load flags', () => {
  it('the profile: stages, or a constant rate, or none (closed loop)', () => {
    expect(loadProfileOf({ ...base, stages, startRate: 2 })).toEqual({ kind: 'stages', startRatePerS: 2, stages });
    expect(loadProfileOf({ ...base, rate: 3, durationMs: 1000 })).toEqual({ kind: 'constant', ratePerS: 3, durationMs: 1000 });
    expect(loadProfileOf(base)).toBeNull();
  });

  it.each<[string, Partial<RunSessionOptions>, RegExp]>([
    ['--stages with --rate', { stages, rate: 5 }, /give one/],
    ['--stages with --duration', { stages, durationMs: 1000 }, /leave out --duration/],
    ['--start-rate alone', { startRate: 1 }, /needs --stages/],
    ['--arrival poisson on a closed loop', { arrival: 'poisson' }, /open-loop/],
    ['--mix weighted on a closed loop', { mix: 'weighted' }, /time-bound/],
    ['--concurrency-stages with --rate', { concurrencyStages: stages, rate: 5, durationMs: 1000 }, /give one/],
    ['stages that start nothing', { stages: [{ durationMs: 1000, targetPerS: 0 }] }, /no start/],
  ])('%s is an input error', (_, extra, message) => {
    expect(() => checkLoadProfile({ ...base, ...extra })).toThrow(message);
  });
});
