import { describe, expect, it } from 'vitest';
import { sample } from '../compare/test-support/fixtures.js';
import { evaluateSweepRate, sloMaxRate, sweepRates } from './sweep.js';

const slos = { ttfc_ms: ['p(95)<500'], pass_rate: ['rate>0.9'] };

describe('a sweep rate, judged', () => {
  it('reports achieved rate, percentiles, error and pass rates, and the SLO verdict', () => {
    const samples = Array.from({ length: 20 }, (_, i) => sample({ caseId: `c${i}`, ttfcMs: 100 + i, latencyMs: 300 }));
    const point = evaluateSweepRate(samples, { targetRate: 2, durationMs: 10_000, slos });
    expect(point).toMatchObject({ target_rate: 2, achieved_rate: 2, starts: 20, requests: 20, error_rate: 0, pass_rate: 1, meets_slo: true });
    expect(point.ttfc_ms!.p50).toBeGreaterThanOrEqual(100);
    expect(point.slo).toHaveLength(2);
  });

  it('answer quality counts: a fast rate whose answers fail misses the SLO', () => {
    const samples = Array.from({ length: 20 }, (_, i) => sample({ caseId: `c${i}`, ttfcMs: 100, pass: i % 2 === 0 }));
    expect(evaluateSweepRate(samples, { targetRate: 2, durationMs: 10_000, slos }).meets_slo).toBe(false);
  });

  it('slo_max_rate is the highest achieved rate meeting every SLO; rates lie strictly between the probes', () => {
    const fast = evaluateSweepRate([sample({ ttfcMs: 100 })], { targetRate: 1, durationMs: 1000, slos });
    const slow = evaluateSweepRate([sample({ ttfcMs: 900 }), sample({ caseId: 'b', ttfcMs: 900 })], { targetRate: 2, durationMs: 1000, slos });
    expect(sloMaxRate([fast, slow])).toBe(1);
    expect(sloMaxRate([slow])).toBeNull();
    expect(sweepRates(1, 9, 3)).toEqual([3, 5, 7]);
  });
});
