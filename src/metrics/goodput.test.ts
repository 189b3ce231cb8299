import { describe, expect, it } from 'vitest';
import type { StageSummary } from '../domain/load.js';
import { sample, sampleWith } from '../test-support/fixtures.js';
import { answerBoundsOf, goodAnswerOf, goodputDefinition, goodputKnee, sloOfLoad } from './goodput.js';
import { createLoadStages } from './load-stages.js';
import { IntervalSum } from './interval-bucket.js';
import { createSummarizer } from './summarizer.js';
import { notSampledReason } from '../domain/sample.js';

describe('goodput: answers within the SLOs that passed their checks', () => {
  it('bounds each answer by the SLO timings, whatever their aggregation; pass_rate and counts bound none', () => {
    const bounds = answerBoundsOf({ ttfc_ms: ['p(95)<1500'], 'latency_ms{model:gpt-4o}': ['avg<=3000'], pass_rate: ['rate>0.9'], errors: ['count<3'] });
    expect(bounds.map((b) => b.words)).toEqual(['ttfc_ms<1500', 'latency_ms{model:gpt-4o}<=3000']);
    const good = goodAnswerOf(bounds);
    expect(good(sample({ ttfcMs: 1000, latencyMs: 2000 }))).toBe(true);
    expect(good(sample({ ttfcMs: 1600 }))).toBe(false);
    // The latency bound scopes one model only.
    expect(good(sample({ model: 'claude', ttfcMs: 100, latencyMs: 9000 }))).toBe(true);
    expect(good(sample({ latencyMs: 3001 }))).toBe(false);
  });

  it('a fast wrong answer, an error and a not-judged answer are not good', () => {
    const good = goodAnswerOf(answerBoundsOf({ ttfc_ms: ['p(95)<1500'] }));
    expect(good(sample({ pass: false }))).toBe(false);
    expect(good(sample({ outcome: 'http_error', pass: false }))).toBe(false);
    expect(good(sampleWith({ pass: null as unknown as boolean, not_judged: 'sampled out' }))).toBe(false);
  });

  it('with no SLO every passed answer is good, and the definition says so', () => {
    expect(goodAnswerOf([])(sample({ ttfcMs: 99_999 }))).toBe(true);
    expect(goodputDefinition([])).toMatch(/passed their checks, with no time bound \(no --slo\)/);
    expect(goodputDefinition(answerBoundsOf({ ttfc_ms: ['p(95)<1500'] }))).toBe('answers that passed their checks with ttfc_ms<1500 each');
    expect(sloOfLoad({ kind: 'closed', concurrency: 2 })).toEqual({});
  });

  it('a closed loop has no corrected latency: its latency is bounded instead', () => {
    const good = goodAnswerOf(answerBoundsOf({ corrected_latency_ms: ['p(99)<500'] }));
    expect(good(sample({ latencyMs: 400 }))).toBe(true);
    expect(good(sample({ latencyMs: 600 }))).toBe(false);
  });

  it('per second (interval sums) and per stage, beside throughput: a wrong answer keeps throughput and loses goodput', () => {
    const sum = new IntervalSum();
    sum.addSample(sample(), true);
    sum.addSample(sample({ pass: false }), false);
    expect(sum.toLine(0, 0, null).good).toBe(1);
    const other = new IntervalSum();
    other.addLine(sum.toLine(0, 0, null));
    expect(other.good).toBe(1);
    // A line written before goodput says nothing: its sum does not claim zero.
    const old = sum.toLine(0, 0, null);
    delete old.good;
    const fromOld = new IntervalSum();
    fromOld.addLine(old);
    expect(fromOld.good).toBeNull();

    const windows = [{ index: 0, from_rate: 2, to_rate: 2, start_ms: 0, end_ms: 2000 }, { index: 1, from_rate: 8, to_rate: 8, start_ms: 2000, end_ms: 4000 }];
    const acc = createLoadStages(windows, goodAnswerOf([]));
    for (let i = 0; i < 4; i++) acc.addSample({ ...sample(), offset_ms: 100 + i * 100 });
    for (let i = 0; i < 4; i++) acc.addSample({ ...sample({ pass: i === 0 }), offset_ms: 2100 + i * 100 });
    acc.add({ ...sum.toLine(0, 3000, null), offset_ms: 3000 });
    const stages = acc.finish().stages;
    expect(stages.map((s) => [s.throughput, s.goodput])).toEqual([[2, 2], [2, 0.5]]);
  });

  it('the knee by goodput: the stage with the most good answers per second, the lowest when tied; is_last when it is the highest load', () => {
    const stage = (index: number, rate: number, goodput: number | null): StageSummary => ({
      index, from_rate: rate, to_rate: rate, start_ms: 0, end_ms: 1, starts: 0, dropped: 0, requests: 0, errors: 0, errors_by_kind: {},
      achieved_rate: rate, error_rate: null, pass_rate: null, ttfc_ms: null, latency_ms: null, corrected_latency_ms: null, credits_used: 0, credits_per_min: null, goodput,
    });
    expect(goodputKnee([stage(0, 2, 2), stage(1, 4, 3.5), stage(2, 8, 1)])).toEqual({ stage: 1, target_rate: 4, achieved_rate: 4, goodput: 3.5, is_last: false });
    expect(goodputKnee([stage(0, 2, 2), stage(1, 4, 2)])!.stage).toBe(0);
    expect(goodputKnee([stage(0, 2, 1), stage(1, 4, 2)])!.is_last).toBe(true);
    expect(goodputKnee([stage(0, 2, null)])).toBeNull();
    // One offered load (a constant rate) has no knee.
    expect(goodputKnee([stage(0, 2, 2)])).toBeNull();
    expect(goodputKnee(undefined)).toBeNull();
  });

  // --judge-sample
  it('the summary counts them apart: not judged, never passed, never good, and not what makes a run incomplete', () => {
    const s = createSummarizer();
    s.add(sampleWith({ item_id: 'a' }));
    s.add(sampleWith({ item_id: 'b', pass: null as unknown as boolean, not_judged: notSampledReason(0.5) }));
    const { summary } = s.finish({ run_id: 'r', status: 'completed', judge_sample: 0.5, duration_ms: 1000 });
    expect(summary.totals).toMatchObject({ passed: 1, not_judged: 1, not_sampled: 1, pass_rate: 1, good_answers: 1, goodput: 1 });
    expect(summary.judge_sample).toEqual({ share: 0.5, not_sampled: 1 });
    expect(summary.verdict).toBe('pass');
    // A grader's own failure still leaves the run incomplete.
    const failing = createSummarizer();
    failing.add(sampleWith({ item_id: 'a' }));
    failing.add(sampleWith({ item_id: 'c', pass: null as unknown as boolean, not_judged: 'the grader request failed' }));
    expect(failing.finish({ run_id: 'r', status: 'completed' }).summary.verdict).toBe('incomplete');
  });
});
