import { describe, expect, it } from 'vitest';
import type { SuiteLoad } from '../domain/suite.js';
import type { RunSessionOptions } from '../config/run-config.js';
import { withSuiteLoad } from './suite-load.js';

const base = { suitePath: 's.yaml', auth: 'header', repeat: 1, concurrency: 4, requestDefaults: {}, timeoutMs: 1000, retries: 0, reportsRoot: '/tmp', thresholdFlags: [], embedded: {}, toolVersion: 't' } as RunSessionOptions;
const stages = [{ durationMs: 20_000, targetPerS: 2 }];
const load: SuiteLoad = { stages, start_rate: 1, arrival: 'poisson', max_in_flight: 64, warmup_ms: 5000, degrade_quality: true, location: { file: 's.yaml', line: 3 } };

describe('a suite load: block under the flags', () => {
  it('gives the run its shape and options when no flag does', () => {
    expect(withSuiteLoad(base, load)).toMatchObject({ stages, startRate: 1, arrival: 'poisson', maxInFlight: 64, warmupMs: 5000, embedded: { degradeQuality: true } });
    expect(withSuiteLoad(base, undefined)).toBe(base);
  });

  it('a shape flag replaces the whole suite shape; other flags win key by key', () => {
    const flags = withSuiteLoad({ ...base, rate: 5, durationMs: 1000, maxInFlight: 8, embedded: { degradeQuality: false } }, load);
    expect(flags).toMatchObject({ rate: 5, durationMs: 1000, maxInFlight: 8, arrival: 'poisson', embedded: { degradeQuality: false } });
    expect(flags.stages).toBeUndefined();
    expect(flags.startRate).toBeUndefined();
    expect(withSuiteLoad({ ...base, stages: [{ durationMs: 1000, targetPerS: 9 }] }, load)).toMatchObject({ stages: [{ durationMs: 1000, targetPerS: 9 }] });
    expect(withSuiteLoad({ ...base, concurrencyStages: stages }, load).stages).toBeUndefined();
  });

  it('an estimate\'s sample leaves the block out', () => {
    expect(withSuiteLoad({ ...base, ignoreSuiteLoad: true }, load).stages).toBeUndefined();
  });
});
