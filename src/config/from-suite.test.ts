import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SuiteLoad } from '../domain/suite.js';
import type { RunConfig } from './run-config.js';
import { withSuiteLoad, withSuiteTraffic } from './from-suite.js';
import { askedLoad, closedLoad } from './load-section.js';
import { testRunConfig } from './test-support/run-config.js';

const base = testRunConfig();
const stages = [{ durationMs: 20_000, targetPerS: 2 }];
const load: SuiteLoad = { stages, start_rate: 1, arrival: 'poisson', max_in_flight: 64, warmup_ms: 5000, degrade_quality: true, location: { file: 's.yaml', line: 3 } };
const asked = (config: RunConfig) => ('asked' in config.load ? config.load.asked : null);

describe('a suite load: block under the flags', () => {
  it('gives the run its shape and options when no flag does', () => {
    const merged = withSuiteLoad(base, load);
    expect(asked(merged)).toMatchObject({ stages, startRate: 1, arrival: 'poisson', maxInFlight: 64, warmupMs: 5000 });
    expect(merged.embedded).toEqual({ degradeQuality: true });
    expect(withSuiteLoad(base, undefined)).toBe(base);
  });

  it('a shape flag replaces the whole suite shape; other flags win key by key', () => {
    const flags = withSuiteLoad({ ...base, load: askedLoad({ rate: 5, durationMs: 1000, maxInFlight: 8 }), embedded: { degradeQuality: false } }, load);
    expect(asked(flags)).toMatchObject({ rate: 5, durationMs: 1000, maxInFlight: 8, arrival: 'poisson' });
    expect(flags.embedded).toEqual({ degradeQuality: false });
    expect(asked(flags)?.stages).toBeUndefined();
    expect(asked(flags)?.startRate).toBeUndefined();
    expect(asked(withSuiteLoad({ ...base, load: askedLoad({ stages: [{ durationMs: 1000, targetPerS: 9 }] }) }, load))).toMatchObject({ stages: [{ durationMs: 1000, targetPerS: 9 }] });
    expect(asked(withSuiteLoad({ ...base, load: askedLoad({ concurrencyStages: stages }) }, load))?.stages).toBeUndefined();
  });

  it('a sweep with its SLOs, and a concurrency, can live in the suite', () => {
    const sweep: SuiteLoad = { sweep: 3, duration_ms: 10_000, slo: ['ttfc_ms=p(95)<2000'], max_in_flight: 16, concurrency: 8, location: { file: 's.yaml', line: 3 } };
    expect(asked(withSuiteLoad(base, sweep))).toEqual({ concurrency: 8, sweep: 3, durationMs: 10_000, slo: ['ttfc_ms=p(95)<2000'], maxInFlight: 16 });
    // --rate replaces the suite's sweep and its SLOs whole.
    expect(asked(withSuiteLoad({ ...base, load: askedLoad({ rate: 2, durationMs: 1000 }) }, sweep))).toEqual({ concurrency: 8, rate: 2, durationMs: 1000, maxInFlight: 16 });
  });

  it('a load fixed whole (a derived run\'s) keeps its own', () => {
    expect(withSuiteLoad({ ...base, load: closedLoad(2) }, load).load).toEqual(closedLoad(2));
  });

  it('a suite\'s traffic log is read as --traffic is, kept under a flag --duration, replaced by another flag shape', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'suite-traffic-'));
    const file = join(dir, 'pilot.jsonl');
    writeFileSync(file, '{"at":0,"prompt":"a"}\n{"at":2,"prompt":"b"}\n');
    const replay: SuiteLoad = { traffic: file, time_scale: 4, location: { file: join(dir, 's.yaml') } };
    const read = await withSuiteTraffic(withSuiteLoad(base, replay), replay);
    expect(asked(read)).toMatchObject({ timeScale: 4, traffic: { file, shape: { records: 2, spanMs: 2000 } } });
    const cut = await withSuiteTraffic(withSuiteLoad({ ...base, load: askedLoad({ durationMs: 1000 }) }, replay), replay);
    expect(asked(cut)).toMatchObject({ durationMs: 1000, timeScale: 4, traffic: { file } });
    const rate = await withSuiteTraffic(withSuiteLoad({ ...base, load: askedLoad({ rate: 5, durationMs: 1000 }) }, replay), replay);
    expect(asked(rate)?.traffic).toBeUndefined();
    expect(asked(rate)?.timeScale).toBeUndefined();
  });
});
