// Checks the summarizer's counting: requests vs skipped, errors by kind, pass rate, credits, verdict, cases, timeline.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { syntheticSamples } from '../report/test-support/synthetic-run.js';
import { decodeHistogramFile } from './histogram-file.js';
import { getOwn } from './own-record.js';
import { createSummarizer } from './summarizer.js';

function summarize(samples: Sample[], thresholds: Record<string, string[]> = {}) {
  const summarizer = createSummarizer({ thresholds });
  samples.forEach((s) => summarizer.add(s));
  return summarizer.finish({ run_id: 'r1', status: 'completed', model_order: ['mistral-large'] });
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
    const judged = summarize(passing, { ttfc_ms: ['p(95)<1'] }).summary;
    expect(judged.verdict).toBe('fail');
    expect(judged.thresholds).toEqual([{ metric: 'ttfc_ms', expression: 'p(95)<1', scope: {}, value: judged.totals.ttfc_ms!.p95, pass: false }]);
    expect(summarize(passing, { ttfc_ms: ['p(95)<5000'] }).summary.verdict).toBe('pass');
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
  });
});

describe('createSummarizer on edge data', () => {
  const base = syntheticSamples({ repeats: 1 })[0]!;

  it('sums credits exactly (1e-5 units), answers and judges, in totals, models and cells', () => {
    const judge = { type: 'judge', pass: true, detail: 'PASS', credits_used: 0.00003 };
    const many = Array.from({ length: 20_000 }, (_, i) => ({ ...base, offset_ms: i, credits_used: 12.34567, checks: [judge] }));
    const { summary } = summarize(many);
    // A float running sum gives 246913.40000007 here, and 0.6 + float noise for the judges.
    expect(summary.totals.credits_used).toBe(246914);
    expect(summary.totals.check_credits_used).toBe(0.6);
    expect(summary.models[base.model]!.credits_used).toBe(246914);
    expect(summary.cases[0]!.models[base.model]!.credits_used).toBe(246914);
  });

  it('reports the max and mean the thresholds see: measured values, not bucket edges', () => {
    const all = syntheticSamples({ repeats: 3 });
    const { summary } = summarize(all);
    for (const [model, stats] of Object.entries(summary.models)) {
      const latencies = all.filter((s) => s.model === model && s.outcome === 'ok').map((s) => Math.round(s.latency_ms! * 1000));
      expect(stats.latency_ms!.max).toBe(Math.max(...latencies) / 1000);
      expect(stats.latency_ms!.mean).toBe(Math.round(latencies.reduce((a, b) => a + b, 0) / latencies.length) / 1000);
      expect(stats.latency_ms!.p99).toBeLessThanOrEqual(stats.latency_ms!.max);
    }
  });

  it('measures characters per second on answers only, as every timing: a cut stream is not a fast one', () => {
    const answer = { ...base, outcome: 'ok' as const, chars: 1000, ttfc_ms: 100, last_chunk_ms: 1100 };
    const cut = { ...base, outcome: 'stream_error' as const, pass: false, chars: 1000, ttfc_ms: 100, last_chunk_ms: 110 };
    expect(summarize([answer, cut]).summary.totals.chars_per_s).toBe(1000);
  });

  it('treats model names such as __proto__ and constructor as names, without touching Object.prototype', () => {
    const odd = syntheticSamples({ repeats: 1 }).map((s) => ({ ...s, model: s.model === 'gpt-4o-mini' ? '__proto__' : s.model === 'mistral-large' ? 'constructor' : s.model }));
    const { summary, histograms, details } = summarize(odd);
    expect(({} as Record<string, unknown>).requests).toBeUndefined();
    expect(Object.keys(summary.models)).toEqual(['claude-sonnet-4-6', '__proto__', 'constructor'].sort((a, b) => a.localeCompare(b)));
    expect(Object.getPrototypeOf(summary.models)).toBe(Object.prototype);
    expect(summary.models.__proto__!.requests).toBe(odd.filter((s) => s.model === '__proto__').length);
    expect(getOwn(summary.models, 'constructor')!.requests).toBe(5);
    expect(Object.keys(summary.cases[0]!.models)).toHaveLength(3);
    expect(Object.keys(histograms)).toContain('__proto__');
    expect(Object.keys(details.curves)).toContain('__proto__');
    expect(JSON.parse(JSON.stringify(summary)).models.__proto__.requests).toBe(summary.models.__proto__!.requests);
  });

  it('gives a conversation that could not be created its own row, not a turn', () => {
    const turn = syntheticSamples({ repeats: 1 }).find((s) => s.thread_id !== null)!;
    const create = { ...turn, item_id: 'thread:onboarding|model:m|r1|create', turn: null, endpoint: 'create' as const, outcome: 'http_error' as const, pass: false };
    const { summary } = summarize([create, { ...turn, outcome: 'skipped', pass: false }]);
    expect(summary.cases.map((c) => [c.key, c.label, c.turn])).toEqual([
      ['thread:onboarding#create', 'onboarding: create conversation', null],
      ['thread:onboarding#1', 'onboarding turn 1', 1],
    ]);
    expect(summary.totals).toMatchObject({ requests: 1, errors: 1, skipped: 1, pass_rate: 0 });
  });
});

describe('repeat_pass: k of n', () => {
  const base = syntheticSamples({ repeats: 3 }).find((s) => s.case_id !== null && s.outcome === 'ok')!;
  const repeats = (k: number | undefined, passes: boolean[]): Sample[] =>
    passes.map((pass, i) => ({
      ...base, item_id: `case:${base.case_id}|model:${base.model}|r${i + 1}`, repeat: i + 1, pass,
      checks: [{ type: 'contains', pass, detail: pass ? 'ok' : 'missing' }], ...(k === undefined ? {} : { repeat_pass: k }),
    }));

  it('passes a case × model with k passed repeats, one failed repeat notwithstanding', () => {
    expect(summarize(repeats(2, [true, false, true])).summary.verdict).toBe('pass');
    expect(summarize(repeats(3, [true, false, true])).summary.verdict).toBe('fail');
    // Without the rule every repeat must pass, as before.
    expect(summarize(repeats(undefined, [true, false, true])).summary.verdict).toBe('fail');
  });
});

describe('checks not judged', () => {
  it('counts them apart (totals and per model), leaves them out of the pass rate and failures, names the grader and its cost, and leaves the verdict incomplete', () => {
    const base = syntheticSamples({ repeats: 1 }).filter((s) => s.outcome === 'ok' && s.pass && s.model === 'gpt-4o-mini').slice(0, 3);
    const judged = (pass: boolean | null) => ({ type: 'judge', pass, detail: '', grader: 'chat g (gpt-4o-mini)', credits_used: 0.01, ...(pass === null ? { not_judged: 'the grader request failed: HTTP 500' } : {}) });
    const samples: Sample[] = [
      { ...base[0]!, checks: [judged(true)], pass: true },
      { ...base[1]!, checks: [judged(false)], pass: false },
      { ...base[2]!, checks: [judged(null)], pass: false, not_judged: 'judge: the grader request failed: HTTP 500' },
    ];
    const { summary } = summarize(samples);
    expect(summary.totals).toMatchObject({ requests: 3, passed: 1, failed: 1, not_judged: 1, pass_rate: 0.5 });
    expect(summary.models['gpt-4o-mini']).toMatchObject({ not_judged: 1, pass_rate: 0.5, grader_credits_used: 0.03 });
    expect(summary.gates.checks.failed).toBe(1);
    expect(summary.verdict).toBe('fail');
    expect(summary.grading).toEqual({ graders: [{ grader: 'chat g (gpt-4o-mini)', checks: 3, not_judged: 1, credits_used: 0.03, tokens: 0 }], credits_used: 0.03, tokens: 0 });
    const onlyUnjudged = summarize([samples[0]!, samples[2]!]).summary;
    expect(onlyUnjudged.verdict).toBe('incomplete');
    expect(onlyUnjudged.gates).toMatchObject({ failed: [], incomplete: ['judged'] });
  });
});
