// Checks the summarizer's counting: requests vs skipped, errors by kind, pass rate, credits, verdict, cases, timeline.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { syntheticSamples } from '../report/test-support/synthetic-run.js';
import { decodeHistogramFile } from './histogram-file.js';
import { applyThresholds, createSummarizer } from './summarizer.js';
import { createTimeline } from './timeline.js';

function summarize(samples: Sample[], thresholds = [] as Parameters<typeof applyThresholds>[1]) {
  const summarizer = createSummarizer();
  samples.forEach((s) => summarizer.add(s));
  return summarizer.finish({ run_id: 'r1', status: 'completed', thresholds, model_order: ['mistral-large'] });
}

describe('createSummarizer', () => {
  const samples = syntheticSamples({ repeats: 3 });
  const { summary, histograms, details } = summarize(samples);

  it('counts requests without skipped turns, and errors by kind', () => {
    const sent = samples.filter((s) => s.outcome !== 'skipped');
    expect(summary.totals.requests).toBe(sent.length);
    expect(summary.totals.skipped).toBe(1);
    expect(summary.totals.errors).toBe(1);
    expect(summary.totals.errors_by_kind).toEqual({ E_TIMEOUT: 1 });
    expect(summary.totals.retries).toBe(1);
    const mistral = summary.models['mistral-large']!;
    expect(mistral.requests).toBe(17);
    expect(mistral.errors_by_kind).toEqual({ E_TIMEOUT: 1 });
    expect(summary.models['gpt-4o-mini']!.passed).toBe(15);
    expect(summary.models['gpt-4o-mini']!.pass_rate).toBeCloseTo(15 / 18);
  });

  it('lists models in the plan order first, then alphabetically', () => {
    expect(Object.keys(summary.models)).toEqual(['mistral-large', 'claude-sonnet-4-6', 'gpt-4o-mini']);
    expect(details.models).toEqual(Object.keys(summary.models));
  });

  it('sums credits, keeps the latest balance and derives per-request and per-passed credits', () => {
    const known = samples.filter((s) => s.credits_used !== null);
    const spent = known.reduce((a, s) => a + s.credits_used!, 0);
    expect(summary.totals.credits_used).toBeCloseTo(spent, 9);
    expect(summary.totals.credits_remaining).toBe(samples.at(-1)!.credits_remaining);
    expect(summary.totals.credits_per_request).toBeCloseTo(spent / known.length, 9);
    expect(summary.totals.credits_per_passed).toBeCloseTo(spent / summary.totals.passed, 9);
  });

  it('measures characters per second over the streaming windows', () => {
    const claude = samples.filter((s) => s.model === 'claude-sonnet-4-6');
    const chars = claude.reduce((a, s) => a + s.chars, 0);
    const ms = claude.reduce((a, s) => a + (s.last_chunk_ms! - s.ttfc_ms!), 0);
    expect(summary.models['claude-sonnet-4-6']!.chars_per_s).toBeCloseTo((chars / ms) * 1000, 0);
  });

  it('keeps timings of successful answers only, in histograms.json too', () => {
    const okMistral = samples.filter((s) => s.model === 'mistral-large' && s.outcome === 'ok').length;
    expect(summary.models['mistral-large']!.latency_ms!.count).toBe(okMistral);
    expect(decodeHistogramFile(histograms).get('mistral-large')!.get('latency_ms')!.totalCount).toBe(okMistral);
    expect(summary.models['mistral-large']!.corrected_latency_ms).toBeNull();
  });

  it('fails the verdict on a failed request or a failed threshold', () => {
    expect(summary.verdict).toBe('fail');
    const passing = samples.filter((s) => s.pass || s.outcome === 'skipped');
    expect(summarize(passing).summary.verdict).toBe('pass');
    const threshold = { metric: 'ttfc_ms', expression: 'p(95)<1', scope: {}, value: 800, pass: false };
    expect(summarize(passing, [threshold]).summary.verdict).toBe('fail');
    expect(applyThresholds(summarize(passing).summary, [threshold]).verdict).toBe('fail');
  });

  it('orders cases as started, a thread’s turns together and in order, with cells per model', () => {
    expect(summary.cases.map((c) => c.label)).toEqual([
      'refund-window', 'shipping-times', 'escaping', 'onboarding turn 1', 'onboarding turn 2', 'onboarding turn 3',
    ]);
    const turn3 = summary.cases.find((c) => c.key === 'thread:onboarding#3')!;
    expect(turn3.models['mistral-large']).toMatchObject({ requests: 2, passed: 2, skipped: 1 });
    const refund = summary.cases.find((c) => c.key === 'case:refund-window')!;
    expect(refund.models['gpt-4o-mini']).toMatchObject({ requests: 3, passed: 0, failed: 3, errors: 0 });
  });

  it('summarises 20,000 samples without trouble (streaming)', () => {
    const summarizer = createSummarizer();
    const base = samples[0]!;
    for (let i = 0; i < 20_000; i++) summarizer.add({ ...base, offset_ms: i * 50, latency_ms: 100 + (i % 1000) });
    const result = summarizer.finish({ run_id: 'big', status: 'completed' });
    expect(result.summary.totals.requests).toBe(20_000);
    expect(result.summary.totals.latency_ms!.p50).toBeCloseTo(600, -1);
    expect(result.details.timeline.series[base.model]!.length).toBeLessThanOrEqual(240);
  });
});

describe('createTimeline', () => {
  it('widens its buckets instead of growing past the bound', () => {
    const timeline = createTimeline(10);
    const base = syntheticSamples({ repeats: 1 })[0]!;
    for (let i = 0; i < 100; i++) timeline.add({ ...base, offset_ms: i * 1000, latency_ms: i });
    const result = timeline.toTimeline([base.model]);
    expect(result.series[base.model]!.length).toBeLessThanOrEqual(10);
    expect(result.series[base.model]!.reduce((a, p) => a + p.count, 0)).toBe(100);
    expect(result.bucket_ms).toBe(16_000);
  });
});
