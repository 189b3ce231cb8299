// Evaluating thresholds over samples: exact values, scopes, empty data, validation up front.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { nearestRank } from './percentile.js';
import { evaluateThresholds, validateThresholds, type ThresholdSample } from './thresholds.js';

function sample(over: Partial<ThresholdSample>): ThresholdSample {
  return {
    model: 'gpt-4o',
    case_id: 'refund',
    thread_id: null,
    turn: null,
    endpoint: 'ask',
    method: 'post',
    streaming: true,
    outcome: 'ok',
    pass: true,
    ttfc_ms: 100,
    ttfb_ms: 50,
    latency_ms: 1000,
    credits_used: 0.05,
    ...over,
  };
}

// 20 answers: ttfc 10, 20, … 200 ms; one failed check; credits 0.01 each, one unknown. Then a
// timeout whose partial timings (5 s, 9 s) are not an answer's: timings leave it out, as summary.json.
const SAMPLES: ThresholdSample[] = [
  ...Array.from({ length: 20 }, (_, i) =>
    sample({
      ttfc_ms: (i + 1) * 10,
      latency_ms: (i + 1) * 100,
      model: i % 2 === 0 ? 'gpt-4o' : 'o3-mini',
      pass: i !== 3,
      credits_used: i === 5 ? null : 0.01,
    }),
  ),
  sample({ model: 'o3-mini', outcome: 'timeout', pass: false, ttfc_ms: 5000, latency_ms: 9000, credits_used: null }),
];

const value = (metric: string, expression: string, samples: ThresholdSample[] = SAMPLES) => evaluateThresholds({ [metric]: [expression] }, samples)[0];

describe('evaluateThresholds', () => {
  it('computes exact trend statistics with nearest-rank percentiles', () => {
    expect(value('ttfc_ms', 'p(95)<2000')).toEqual({ metric: 'ttfc_ms', expression: 'p(95)<2000', scope: {}, value: 190, pass: true });
    expect(value('ttfc_ms', 'p(50)<100')).toMatchObject({ value: 100, pass: false });
    expect(value('ttfc_ms', 'med<=100')).toMatchObject({ value: 100, pass: true });
    expect(value('ttfc_ms', 'p(99.9)<200')).toMatchObject({ value: 200, pass: false });
    expect(value('ttfc_ms', 'min==10')?.value).toBe(10);
    expect(value('ttfc_ms', 'max==200')?.value).toBe(200);
    expect(value('ttfc_ms', 'avg==105')?.pass).toBe(true);
    expect(value('latency_ms', 'sum==21000')?.pass).toBe(true);
    expect(value('ttfc_ms', 'count==20')?.pass).toBe(true);
  });

  it('computes pass rate, errors and credits', () => {
    expect(value('pass_rate', 'rate>=0.9')).toMatchObject({ value: 19 / 21, pass: true });
    expect(value('errors', 'count<1')).toMatchObject({ value: 1, pass: false });
    expect(value('errors', 'rate<=0.05')).toMatchObject({ value: 1 / 21, pass: true });
    expect(value('credits_used', 'count==19')?.pass).toBe(true);
    expect(value('credits_used', 'sum<=5')?.value).toBeCloseTo(0.19, 10);
    expect(value('credits_per_request', 'value<0.02')?.value).toBeCloseTo(0.01, 10);
    expect(value('credits_per_request', 'avg<0.02')?.pass).toBe(true);
  });

  it('scopes by tags, several at once', () => {
    expect(value('ttfc_ms{model:o3-mini}', 'max<=200')).toMatchObject({ metric: 'ttfc_ms{model:o3-mini}', scope: { model: 'o3-mini' }, value: 200 });
    expect(value('ttfc_ms{model:gpt-4o}', 'max<200')).toMatchObject({ value: 190, pass: true });
    expect(value('errors{model:o3-mini,outcome:timeout}', 'count==1')?.pass).toBe(true);
    const turns = [sample({ endpoint: 'continue', thread_id: 'onboarding', turn: 1, case_id: null, latency_ms: 5 }), sample({ latency_ms: 7 })];
    expect(value('latency_ms{thread:onboarding,turn:1}', 'max<6', turns)).toMatchObject({ value: 5, pass: true });
    expect(value('latency_ms{case:refund,streaming:true,method:post,endpoint:ask}', 'max<8', turns)).toMatchObject({ value: 7 });
  });

  it('leaves out skipped turns unless the scope names them; a failed create is a failed request, as in summary.json', () => {
    const create = sample({ endpoint: 'create', outcome: 'http_error', ttfb_ms: 999, ttfc_ms: null, latency_ms: null, pass: false, credits_used: null });
    const samples = [sample({ ttfc_ms: 1, ttfb_ms: 2 }), create, sample({ outcome: 'skipped', pass: false, ttfc_ms: null })];
    expect(value('ttfc_ms', 'max<10', samples)).toMatchObject({ value: 1, pass: true });
    expect(value('ttfb_ms', 'max<10', samples)).toMatchObject({ value: 2, pass: true });
    expect(value('pass_rate', 'rate==0.5', samples)?.pass).toBe(true);
    expect(value('errors', 'count==1', samples)?.pass).toBe(true);
    expect(value('ttfb_ms{endpoint:create,outcome:http_error}', 'max>10', samples)?.pass).toBe(true);
    expect(value('errors{outcome:skipped}', 'count==1', samples)?.pass).toBe(true);
  });

  it('judges timings on answers only, unless the scope names an outcome', () => {
    expect(value('latency_ms', 'max<=2000')).toMatchObject({ value: 2000, pass: true });
    expect(value('latency_ms{outcome:timeout}', 'max==9000')?.pass).toBe(true);
  });

  it('counts what checks (judges) spent in credits_used, as summary.json does, and sums exactly', () => {
    const judged = [
      sample({ credits_used: 0.1, checks: [{ type: 'judge', pass: true, detail: '', credits_used: 0.02 }] }),
      sample({ credits_used: 0.2, check_credits_used: 0.03 }),
    ];
    expect(value('credits_used', 'sum==0.35', judged)?.pass).toBe(true);
    expect(value('credits_per_request', 'value==0.175', judged)?.pass).toBe(true);
    // 100,000 answers of 1.23457 credits: a float sum drifts off 123457 (by ~1e-8).
    const many = Array.from({ length: 100_000 }, () => sample({ credits_used: 1.23457 }));
    expect(value('credits_used', 'sum==123457', many)).toMatchObject({ value: 123457, pass: true });
  });

  it('with no matching samples: count is 0, anything else is null and fails', () => {
    expect(value('ttfc_ms{model:nope}', 'p(95)<2000')).toMatchObject({ value: null, pass: false });
    expect(value('pass_rate{model:nope}', 'rate>=0')).toMatchObject({ value: null, pass: false });
    expect(value('errors{model:nope}', 'rate<0.1')).toMatchObject({ value: null, pass: false });
    expect(value('errors{model:nope}', 'count==0')).toMatchObject({ value: 0, pass: true });
    expect(value('ttfc_ms{model:nope}', 'count<1')).toMatchObject({ value: 0, pass: true });
    expect(value('credits_used', 'sum<1', [sample({ credits_used: null })])).toMatchObject({ value: null, pass: false });
  });

  it('accepts any iterable of samples and keeps expression order', () => {
    function* generate() {
      yield* SAMPLES;
    }
    const results = evaluateThresholds({ ttfc_ms: ['p(95)<2000', 'avg>1000'], pass_rate: ['rate>0.5'] }, generate());
    expect(results.map((r) => [r.metric, r.expression, r.pass])).toEqual([
      ['ttfc_ms', 'p(95)<2000', true],
      ['ttfc_ms', 'avg>1000', false],
      ['pass_rate', 'rate>0.5', true],
    ]);
  });
});

describe('validateThresholds', () => {
  it('returns every parsed threshold, or throws one InputError naming every problem', () => {
    expect(validateThresholds({ ttfc_ms: ['p(95)<2000'] })).toHaveLength(1);
    expect(() => validateThresholds({ ttfc_ms: ['p(95)2000'] })).toThrow(/threshold "ttfc_ms: p\(95\)2000": missing operator/);
    let error: unknown;
    try {
      validateThresholds({ ttfc_ms: ['p(95)<2000', 'rate<1'], latency: ['avg<1'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message.split('\n')).toEqual([
      expect.stringContaining('aggregation "rate" is not valid for ttfc_ms'),
      expect.stringContaining('unknown metric "latency"'),
    ]);
    expect(() => evaluateThresholds({ x: ['avg<1'] }, [])).toThrow(InputError);
  });
});

describe('nearestRank', () => {
  it('matches the definition: the smallest value with at least p% of values at or below it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 60 }), fc.double({ min: 0.01, max: 100, noNaN: true }), (values, p) => {
        const sorted = [...values].sort((a, b) => a - b);
        const result = nearestRank(sorted, p);
        const atOrBelow = sorted.filter((v) => v <= result).length;
        const below = sorted.filter((v) => v < result).length;
        expect(atOrBelow / sorted.length).toBeGreaterThanOrEqual(p / 100 - 1e-9);
        expect(below / sorted.length).toBeLessThan(p / 100 + 1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('gives exact ranks where floating point would slip', () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect(nearestRank(thousand, 99.9)).toBe(999);
    expect(nearestRank(Array.from({ length: 20 }, (_, i) => i + 1), 95)).toBe(19);
    expect(nearestRank([1, 2], 50)).toBe(1);
    expect(nearestRank([5], 0.001)).toBe(5);
  });
});
