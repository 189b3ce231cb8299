import { describe, expect, it } from 'vitest';
import { arrivalProfileOf } from '../load/index.js';
import type { LoadAsked, RunConfig } from './run-config.js';
import { askedConcurrency, askedLoad, closedLoad, specOf } from './load-section.js';

const stages = [{ durationMs: 1000, targetPerS: 5 }];
const run = (asked: Partial<LoadAsked>, placement: RunConfig['placement'] = {}): Pick<RunConfig, 'load' | 'placement'> => ({ load: askedLoad(asked), placement });

describe('the load section', () => {
  it('as asked: the spec its fields ask for (stages, a constant rate, or the closed loop)', () => {
    expect(arrivalProfileOf(specOf(run({ stages, startRate: 2 })))).toEqual({ kind: 'stages', startRatePerS: 2, stages });
    expect(arrivalProfileOf(specOf(run({ rate: 3, durationMs: 1000 })))).toEqual({ kind: 'constant', ratePerS: 3, durationMs: 1000 });
    expect(specOf(run({}))).toEqual({ kind: 'closed', concurrency: 4 });
  });

  it('a spec fixed whole is the spec, whatever the run\'s shard (a derived run replaces the section)', () => {
    expect(specOf({ load: closedLoad(2), placement: { shard: { index: 1, count: 2 } } })).toEqual({ kind: 'closed', concurrency: 2 });
    expect(askedConcurrency(closedLoad(2))).toBe(2);
    expect(askedConcurrency(askedLoad({ concurrency: 7, rate: 1, durationMs: 1000 }))).toBe(7);
  });

  it.each<[string, Partial<LoadAsked>, RunConfig['placement'], RegExp]>([
    ['--stages with --rate', { stages, rate: 5 }, {}, /give one/],
    ['--start-rate alone', { startRate: 1 }, {}, /needs --stages/],
    ['--arrival poisson on a closed loop', { arrival: 'poisson' }, {}, /open-loop/],
    ['--mix weighted on a closed loop', { mix: 'weighted' }, {}, /time-bound/],
    ['--sweep with --shard', { sweep: 3, durationMs: 1000 }, { shard: { index: 1, count: 2 } }, /leave out --shard/],
    ['--sweep with --resume', { sweep: 3, durationMs: 1000 }, { resumeDir: '/tmp/x' }, /cannot be resumed/],
    ['--slo without --sweep', { slo: ['ttfc_ms=p(95)<100'] }, {}, /--slo is judged per rate/],
  ])('%s is an input error', (_, asked, extra, message) => {
    expect(() => specOf(run(asked, extra))).toThrow(message);
  });

  it('a sweep\'s SLOs are threshold definitions', () => {
    const spec = specOf(run({ sweep: 2, durationMs: 1000, slo: ['ttfc_ms=p(95)<2000', 'ttfc_ms=p(50)<500', 'pass_rate=rate>0.9'] }));
    expect(spec.kind === 'sweep' && spec.slo).toEqual({ ttfc_ms: ['p(95)<2000', 'p(50)<500'], pass_rate: ['rate>0.9'] });
  });
});
