// Per-question statistics: the same figures in memory and spilled, the contract's fields, not-judged answers left out.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { syntheticSamples } from '../report/test-support/synthetic-run.js';
import { createCaseStats } from './case-stats.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-question-stats-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TEMPLATE = syntheticSamples({ repeats: 1 })[0]!;

/** One answer of case `q<i>` by `model`, repeat `repeat`. */
function answer(i: number, model: string, repeat: number, pass: boolean | null, latencyMs = 1000): Sample {
  return {
    ...TEMPLATE, item_id: `q${i}:${model}:r${repeat}`, case_id: `q${i}`, thread_id: null, turn: null, model, repeat,
    offset_ms: i * 10 + repeat, pass: pass as boolean, ttfc_ms: latencyMs / 2, latency_ms: latencyMs, credits_used: 0.001,
  };
}

function run(samples: Sample[], limit?: number) {
  const stats = createCaseStats({ spillDir: dir, ...(limit !== undefined ? { limit } : {}) });
  for (const s of samples) stats.add(s);
  const result = stats.finish(['a', 'b']);
  result.table.dispose();
  return result;
}

describe('per-question statistics', () => {
  // a passes the even questions, b every one: 50 vs 100 over 60 questions, b faster by 300 ms.
  const samples: Sample[] = [];
  for (let i = 0; i < 60; i++) {
    samples.push(answer(i, 'a', 1, i % 2 === 0, 1300));
    samples.push(answer(i, 'b', 1, true, 1000));
  }

  it('gives each model an interval and the pair a verdict per metric', () => {
    const { questions } = run(samples);
    const a = questions.models.get('a')!;
    expect(a.questions).toBe(60);
    expect(a.pass_at_1).toBe(0.5);
    expect(a.pass_rate_ci95[0]).toBeLessThan(0.5);
    expect(a.pass_rate_ci95[1]).toBeGreaterThan(0.5);
    const [pair] = questions.pairs;
    expect(pair).toMatchObject({ a: 'a', b: 'b', questions: 60 });
    expect(pair!.pass_rate).toMatchObject({ difference: 0.5, verdict: 'b_better', method: 'tango-score' });
    expect(pair!.pass_rate!.p_adjusted!).toBeLessThan(0.001);
    expect(pair!.latency_ms_p50).toMatchObject({ difference: -300, verdict: 'b_better' });
    expect(pair!.credits_per_answer).toMatchObject({ difference: 0, verdict: 'no_difference' });
    expect(pair!.detectable_difference).toBeGreaterThan(0);
    expect(pair!.to_detect.map((t) => t.difference)).toEqual([0.05, 0.1]);
  });

  it('gives the same figures when the case table spills to disk', () => {
    const memory = run(samples).questions;
    const spilled = run(samples, 5).questions;
    expect(spilled.pairs).toEqual(memory.pairs);
    expect([...spilled.models]).toEqual([...memory.models]);
  });

  it('classifies repeats, lists flaky cells, and leaves answers no check judged out', () => {
    const repeated: Sample[] = [];
    for (let i = 0; i < 10; i++) {
      for (let r = 1; r <= 3; r++) {
        repeated.push(answer(i, 'a', r, i < 5 ? true : r === 1));
        repeated.push(answer(i, 'b', r, r === 3 ? null : true));
      }
    }
    const { cases, questions } = run(repeated);
    expect(cases[0]!.models['a']!.stability).toBe('stable_pass');
    expect(cases[9]!.models['a']!.stability).toBe('flaky');
    expect(cases[0]!.models['b']).toMatchObject({ stability: 'stable_pass', not_judged: 1 });
    expect(questions.flaky.total).toBe(5);
    expect(questions.models.get('b')!.pass_at_1).toBe(1);
    expect(questions.models.get('b')!.answers).toBe(20);
    expect(questions.models.get('a')!.pass_hat_k).toEqual({ k: 3, value: 0.5 });
  });

  it('keeps a bounded sample of whole clusters past its limit', async () => {
    const { createQuestionStats } = await import('./question-stats.js');
    const q = createQuestionStats(10);
    for (let i = 0; i < 100; i++) {
      const cells = new Map([['a', { requests: 1, passed: 1, failed: 0, errors: 0, skipped: 0, creditUnits: 0, latencyMsSum: 0, required: 0, notJudged: 0, okCount: 0, okLatencyMsSum: 0, ttfcCount: 0, ttfcMsSum: 0 }]]);
      q.add({ key: `case:${i}`, label: `${i}`, case_id: `${i}`, thread_id: null, turn: null, firstOffsetMs: i, cells });
    }
    const result = q.finish(['a']);
    expect(result.models.get('a')).toMatchObject({ questions: 100, questions_sampled: 10 });
  });
});
