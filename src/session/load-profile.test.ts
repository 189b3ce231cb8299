import { describe, expect, it } from 'vitest';
import type { RunSessionOptions } from '../config/run-config.js';
import { checkLoadProfile, loadProfileOf, sweepSlos } from './load-profile.js';

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
    ['--sweep with --rate', { sweep: 3, rate: 2, durationMs: 1000 }, /leave out --rate/],
    ['--sweep with --stages', { sweep: 3, stages }, /leave out --stages/],
    ['--sweep without --duration', { sweep: 3 }, /needs --duration/],
    ['--sweep with --warmup', { sweep: 3, durationMs: 1000, warmupMs: 500 }, /leave out --warmup/],
    ['--sweep with --shard', { sweep: 3, durationMs: 1000, shard: { index: 1, count: 2 } }, /leave out --shard/],
    ['--sweep of too many rates', { sweep: 101, durationMs: 1000 }, /at most 100/],
    ['--slo without --sweep', { slo: ['ttfc_ms=p(95)<100'] }, /--slo is judged per rate/],
    ['--slo with abortOnFail', { sweep: 2, durationMs: 1000, slo: ['ttfc_ms=p(95)<100;abortOnFail'] }, /never stops/],
    ['--slo not in the grammar', { sweep: 2, durationMs: 1000, slo: ['ttfc_ms=p(95)<<1'] }, /--slo/],
  ])('%s is an input error', (_, extra, message) => {
    expect(() => checkLoadProfile({ ...base, ...extra })).toThrow(message);
  });
});

describe('--sweep and --slo', () => {
  it('a sweep with --duration (and --arrival, --mix) is fine; its SLOs are threshold definitions', () => {
    expect(() => checkLoadProfile({ ...base, sweep: 3, durationMs: 1000, arrival: 'poisson', mix: 'shuffle' })).not.toThrow();
    expect(sweepSlos({ ...base, sweep: 2, durationMs: 1000, slo: ['ttfc_ms=p(95)<2000', 'ttfc_ms=p(50)<500', 'pass_rate=rate>0.9'] })).toEqual({ ttfc_ms: ['p(95)<2000', 'p(50)<500'], pass_rate: ['rate>0.9'] });
  });
});
