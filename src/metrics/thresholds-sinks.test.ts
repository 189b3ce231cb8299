// Threshold sinks read HDR aggregates: scoped values equal a histogram built by hand, and the summary's own numbers.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { createHistogram, createTally, recordMs, timingReadout } from './histogram.js';
import { createSummarizer } from './summarizer.js';
import { seededRandom, syntheticSamples } from '../report/test-support/synthetic-run.js';
import { createThresholdSinks } from './thresholds-sinks.js';

const MODELS = ['gpt-4o', 'o3-mini', 'claude-sonnet-4-6'];
const OUTCOMES = ['ok', 'ok', 'ok', 'ok', 'timeout', 'http_error'] as const;

/** 3,000 samples over three models, both streaming modes and a few outcomes; latencies spread over 4 decades. */
function spreadSamples(): Sample[] {
  const base = syntheticSamples({ repeats: 1 })[0]!;
  const random = seededRandom(7);
  return Array.from({ length: 3000 }, (_, i) => {
    const outcome = OUTCOMES[Math.floor(random() * OUTCOMES.length)]!;
    return {
      ...base,
      item_id: `case:c${i}|model:m|r1`, case_id: `c${i % 50}`, model: MODELS[i % 3]!, streaming: random() < 0.5, offset_ms: i,
      outcome, pass: outcome === 'ok', latency_ms: 10 ** (1 + 3 * random()), ttfc_ms: 5 + random() * 900,
    };
  });
}

const SCOPES: Array<[string, (s: Sample) => boolean]> = [
  ['', (s) => s.outcome === 'ok'],
  ['{model:o3-mini}', (s) => s.model === 'o3-mini' && s.outcome === 'ok'],
  ['{model:gpt-4o,streaming:false}', (s) => s.model === 'gpt-4o' && !s.streaming && s.outcome === 'ok'],
  ['{outcome:timeout}', (s) => s.outcome === 'timeout'],
  ['{case:c7}', (s) => s.case_id === 'c7' && s.outcome === 'ok'],
];
const EXPRESSIONS = ['p(50)>0', 'p(90)>0', 'p(95)>0', 'p(99)>0', 'p(99.9)>0', 'med>0', 'min>0', 'max>0', 'avg>0', 'count>0', 'sum>0'];

describe('createThresholdSinks', () => {
  const samples = spreadSamples();

  it('judges every scope on HDR aggregates: the same numbers as a histogram of that scope built by hand', () => {
    const definitions = Object.fromEntries(SCOPES.map(([scope]) => [`latency_ms${scope}`, EXPRESSIONS]));
    const sinks = createThresholdSinks(definitions);
    for (const s of samples) sinks.add(s);
    const results = sinks.evaluate();
    for (const [scope, selects] of SCOPES) {
      const histogram = createHistogram();
      const tally = createTally();
      for (const s of samples.filter(selects)) recordMs(histogram, s.latency_ms, tally);
      const expected = timingReadout(histogram, tally)!;
      const read = (expression: string) => results.find((r) => r.metric === `latency_ms${scope}` && r.expression === expression)!.value;
      expect(expected.count).toBeGreaterThan(10);
      for (const p of [50, 90, 95, 99, 99.9]) expect(read(`p(${p})>0`)).toBe(expected.percentile(p));
      expect(read('med>0')).toBe(expected.percentile(50));
      expect([read('min>0'), read('max>0'), read('avg>0'), read('count>0'), read('sum>0')]).toEqual([expected.min, expected.max, expected.mean, expected.count, expected.sum]);
      // HDR keeps 3 significant digits: within 0.1% of the exact nearest-rank value.
      const sorted = samples.filter(selects).map((s) => Math.round(s.latency_ms! * 1000) / 1000).sort((a, b) => a - b);
      const exactP95 = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
      expect(Math.abs(read('p(95)>0')! - exactP95) / exactP95).toBeLessThan(0.001);
    }
  });

  it('reads the summary’s own accumulators for unscoped and model-only thresholds: summary.json and thresholds agree', () => {
    const summarizer = createSummarizer({
      thresholds: { latency_ms: ['p(95)<1', 'avg<1'], 'ttfc_ms{model:o3-mini}': ['p(99)<1'], pass_rate: ['rate>0'], 'latency_ms{model:gpt-4o,streaming:false}': ['p(95)<1'] },
    });
    for (const s of samples) summarizer.add(s);
    const { summary } = summarizer.finish({ run_id: 'r', status: 'completed' });
    const [p95, avg, modelP99, passRate, scoped] = summary.thresholds;
    expect(p95).toMatchObject({ value: summary.totals.latency_ms!.p95, pass: false });
    expect(avg!.value).toBe(summary.totals.latency_ms!.mean);
    expect(modelP99!.value).toBe(summary.models['o3-mini']!.ttfc_ms!.p99);
    expect(passRate!.value).toBe(summary.totals.pass_rate);
    expect(summary.verdict).toBe('fail');
    // Sinks of their own (as a live run keeps them) give the very same results.
    const own = createThresholdSinks({ latency_ms: ['p(95)<1', 'avg<1'], 'ttfc_ms{model:o3-mini}': ['p(99)<1'], pass_rate: ['rate>0'], 'latency_ms{model:gpt-4o,streaming:false}': ['p(95)<1'] });
    for (const s of samples) own.add(s);
    expect(own.evaluate()).toEqual(summary.thresholds);
    expect(scoped!.value).not.toBeNull();
  });

  it('judges metrics read from counters and the credit distribution alone', () => {
    const sinks = createThresholdSinks({ 'errors{model:gpt-4o}': ['count<5'], 'credits_used{model:gpt-4o}': ['p(95)<1'] });
    for (const s of samples.slice(0, 30)) sinks.add(s);
    expect(sinks.evaluate().map((r) => r.value !== null)).toEqual([true, true]);
    expect(sinks.parsed.map((t) => t.metric)).toEqual(['errors', 'credits_used']);
  });
});

describe('timing thresholds of reused answers (--reuse-answers)', () => {
  const base = syntheticSamples({ repeats: 1 })[0]!;
  const reused = (i: number): Sample => ({
    ...base, item_id: `case:r${i}|model:m|r1`, model: 'm', outcome: 'ok', pass: true, ttfc_ms: null, latency_ms: null, ttfb_ms: null,
    credits_used: 0, reused_from: 'run-old', credits_saved: 1, reused_ttfc_ms: 300, reused_latency_ms: 900,
  });
  const definitions = { latency_ms: ['p(95)<2000'], 'ttfc_ms{model:m}': ['p(50)<500'], errors: ['count==0'] };

  it('a scope whose every answer was reused: its timings are not judged (and do not fail), the other thresholds are', () => {
    const sinks = createThresholdSinks(definitions);
    for (const i of [1, 2, 3]) sinks.add(reused(i));
    const results = sinks.evaluate();
    expect(results.map((r) => [r.metric, r.pass, r.not_judged])).toEqual([
      ['latency_ms', true, 'every answer was reused'], ['ttfc_ms{model:m}', true, 'every answer was reused'], ['errors', true, undefined],
    ]);
    expect(results[0]!.value).toBeNull();
  });

  it('one answer asked now: judged on it; nothing at all: still fails with no data', () => {
    const sinks = createThresholdSinks(definitions);
    sinks.add(reused(1));
    sinks.add({ ...base, item_id: 'case:a|model:m|r1', model: 'm', outcome: 'ok', latency_ms: 2500, ttfc_ms: 100 });
    expect(sinks.evaluate().map((r) => [r.pass, r.not_judged])).toEqual([[false, undefined], [true, undefined], [true, undefined]]);
    expect(createThresholdSinks(definitions).evaluate().map((r) => [r.pass, r.not_judged])).toEqual([[false, undefined], [false, undefined], [true, undefined]]);
  });
});
