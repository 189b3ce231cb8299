import { describe, expect, it } from 'vitest';
import { sampleWith } from '../test-support/fixtures.js';
import { reusedTimingsApart } from './reused-answers.js';
import { createSummarizer } from './summarizer.js';

describe('reused answers in the summary', () => {
  it('count in requests and pass rate, stay out of the timings and the spend, and report what they saved apart', () => {
    const s = createSummarizer();
    s.add(sampleWith({ item_id: 'case:a|model:m|r1', model: 'm', ttfc_ms: 100, latency_ms: 200, credits_used: 1, pass: true }));
    s.add(sampleWith({
      item_id: 'case:b|model:m|r1', model: 'm', ttfc_ms: null, latency_ms: null, ttfb_ms: null, credits_used: 0, pass: true,
      reused_from: 'run-old', credits_saved: 2.5, reused_ttfc_ms: 900, reused_latency_ms: 1800,
    }));
    s.add(sampleWith({ item_id: 'case:c|model:m|r1', model: 'm', ttfc_ms: null, latency_ms: null, credits_used: 0, pass: false, reused_from: 'run-old', credits_saved: null, reused_ttfc_ms: null, reused_latency_ms: null }));
    const { summary } = s.finish({ run_id: 'r', status: 'completed' });
    expect(summary.totals.requests).toBe(3);
    expect(summary.totals.reused).toBe(2);
    expect(summary.totals.credits_used).toBe(1);
    expect(summary.totals.ttfc_ms?.count).toBe(1);
    expect(summary.totals.ttfc_ms?.max).toBe(100);
    expect(summary.credits?.saved).toBe(2.5);
    expect(summary.reused).toMatchObject({ answers: 2, from: ['run-old'], credits_saved: 2.5, credits_saved_unknown: 1 });
    expect(summary.reused?.ttfc_ms?.p50).toBe(900);
    expect(summary.reused?.latency_ms?.count).toBe(1);
    expect(reusedTimingsApart(summary.reused!)).toBe(true);
  });

  it('a regrade\'s answers: spent 0 and saved what they cost, their timings kept in the run\'s own figures', () => {
    const s = createSummarizer();
    s.add(sampleWith({ item_id: 'case:a|model:m|r1', model: 'm', ttfc_ms: 100, latency_ms: 200, credits_used: 0, pass: true, reused_from: 'run-old', credits_saved: 1.5 }));
    const { summary } = s.finish({ run_id: 'r', status: 'completed' });
    expect(summary.totals.credits_used).toBe(0);
    expect(summary.credits?.saved).toBe(1.5);
    expect(summary.totals.ttfc_ms?.count).toBe(1);
    expect(reusedTimingsApart(summary.reused!)).toBe(false);
  });

  it('is absent from a run that reused nothing', () => {
    const s = createSummarizer();
    s.add(sampleWith({}));
    const { summary } = s.finish({ run_id: 'r', status: 'completed' });
    expect(summary.reused).toBeUndefined();
    expect(summary.totals.reused).toBeUndefined();
    expect(summary.credits?.saved).toBeUndefined();
  });
});
