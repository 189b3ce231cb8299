// Thresholds judged by their sinks: HDR statistics (3 significant digits), scopes, empty data, validation up front.
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { sampleWith } from '../test-support/fixtures.js';
import { createThresholdSinks } from './thresholds-sinks.js';
import { validateThresholds } from './thresholds.js';

const sample = (over: Partial<Sample>): Sample => sampleWith({
  item_id: 'case:refund|model:gpt-4o|r1', case_id: 'refund', started_at: '2025-01-01T00:00:00.000Z', ttfb_ms: 50, latency_ms: 1000,
  chunks: 1, chars: 10, text: 'answer', credits_used: 0.05, checks: [], ...over,
});

// 20 answers: ttfc 10, 20, … 200 ms; one failed check; credits 0.01 each, one unknown. Then a
// timeout whose partial timings (5 s, 9 s) are not an answer's: timings leave it out, as summary.json.
const SAMPLES: Sample[] = [
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

function evaluate(thresholds: Record<string, string[]>, samples: Iterable<Sample>) {
  const sinks = createThresholdSinks(thresholds);
  for (const s of samples) sinks.add(s);
  return sinks.evaluate();
}

const value = (metric: string, expression: string, samples: Sample[] = SAMPLES) => evaluate({ [metric]: [expression] }, samples)[0];

describe('threshold sinks', () => {
  it('computes trend statistics: count, sum, min, max and mean exact, percentiles from HDR (nearest rank)', () => {
    // Percentiles are HDR's (3 significant digits: the top of the value's bucket, capped at the
    // exact max), no longer exact ranks over raw values: p(95) of 10…200 ms reads 190.079, not
    // 190, and the median 100.031, not 100 (so `med<=100` now fails where it used to pass).
    expect(value('ttfc_ms', 'p(95)<2000')).toEqual({ metric: 'ttfc_ms', expression: 'p(95)<2000', scope: {}, value: 190.079, pass: true });
    expect(value('ttfc_ms', 'p(50)<100')).toMatchObject({ value: 100.031, pass: false });
    expect(value('ttfc_ms', 'med<=100')).toMatchObject({ value: 100.031, pass: false });
    expect(value('ttfc_ms', 'med<=100.1')).toMatchObject({ value: 100.031, pass: true });
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
    expect(value('credits_used', 'max==0.01')?.pass).toBe(true);
    expect(value('credits_used', 'p(95)==0.01')?.pass).toBe(true);
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
    expect(value('pass_rate{outcome:skipped}', 'rate==0', samples)?.pass).toBe(true);
  });

  it('judges timings on answers only, unless the scope names an outcome', () => {
    expect(value('latency_ms', 'max<=2000')).toMatchObject({ value: 2000, pass: true });
    expect(value('latency_ms{outcome:timeout}', 'max==9000')?.pass).toBe(true);
  });

  it('counts what checks (judges) spent in credits_used, as summary.json does, and sums exactly', () => {
    const judged = [
      sample({ credits_used: 0.1, checks: [{ type: 'judge', pass: true, detail: '', credits_used: 0.02 }] }),
      sample({ credits_used: 0.2, checks: [{ type: 'judge', pass: true, detail: '', credits_used: 0.03 }] }),
      // Credits unknown, but its judge spent something: counted in credits_used, not in per-request.
      sample({ credits_used: null, checks: [{ type: 'judge', pass: true, detail: '', credits_used: 0.01 }] }),
    ];
    expect(value('credits_used', 'sum==0.36', judged)?.pass).toBe(true);
    expect(value('credits_used', 'count==3', judged)?.pass).toBe(true);
    expect(value('credits_used', 'min==0.01', judged)?.pass).toBe(true);
    expect(value('credits_per_request', 'value==0.18', judged)?.pass).toBe(true);
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

  it('keeps expression order and shares one sink between equal scopes written differently', () => {
    const results = evaluate({ ttfc_ms: ['p(95)<2000', 'avg>1000'], pass_rate: ['rate>0.5'], 'errors{model:o3-mini,outcome:timeout}': ['count==1'], 'latency_ms{outcome:timeout,model:o3-mini}': ['max==9000'] }, SAMPLES);
    expect(results.map((r) => [r.metric, r.expression, r.pass])).toEqual([
      ['ttfc_ms', 'p(95)<2000', true],
      ['ttfc_ms', 'avg>1000', false],
      ['pass_rate', 'rate>0.5', true],
      ['errors{model:o3-mini,outcome:timeout}', 'count==1', true],
      ['latency_ms{outcome:timeout,model:o3-mini}', 'max==9000', true],
    ]);
  });

  it('judges live: evaluate() reads what has been added so far, any number of times', () => {
    const sinks = createThresholdSinks({ 'errors{model:o3-mini}': ['count<1'], ttfc_ms: ['max<=100'] });
    for (const s of SAMPLES.slice(0, 10)) sinks.add(s);
    expect(sinks.evaluate().map((r) => r.pass)).toEqual([true, true]);
    for (const s of SAMPLES.slice(10)) sinks.add(s);
    expect(sinks.evaluate().map((r) => [r.value, r.pass])).toEqual([[1, false], [200, false]]);
  });

  it('treats tag values as text: a model named __proto__ or one with commas is just a name', () => {
    const odd = [sample({ model: '__proto__', ttfc_ms: 3 }), sample({ model: 'a:b', ttfc_ms: 4 })];
    expect(value('ttfc_ms{model:__proto__}', 'max==3', odd)?.pass).toBe(true);
    expect(value('ttfc_ms{model:a:b}', 'max==4', odd)?.pass).toBe(true);
    expect(({} as Record<string, unknown>).requests).toBeUndefined();
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
    expect(() => createThresholdSinks({ x: ['avg<1'] })).toThrow(InputError);
  });
});
