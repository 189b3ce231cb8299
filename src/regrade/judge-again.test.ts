import { describe, expect, it } from 'vitest';
import type { CheckSpec } from '../domain/suite.js';
import { caseId } from '../plan/item-id.js';
import type { PlanRequest } from '../plan/types.js';
import { runChecks } from '../checks/index.js';
import type { CheckFn } from '../runner/index.js';
import { questionKey } from '../store/answer-key.js';
import { sampleWith } from '../test-support/fixtures.js';
import { judgeAgain, keptLine, notJudgedLine, regradeStep } from './judge-again.js';

const contains = (value: string): CheckSpec => ({ type: 'contains', value }) as CheckSpec;

function request(over: Partial<PlanRequest> = {}): PlanRequest {
  const r: PlanRequest = {
    id: caseId('refund-window', 'gpt-4o', 1), case_id: 'refund-window', thread_id: null, turn: null, model: 'gpt-4o', request_model: 'gpt-4o', repeat: 1,
    prompt: 'How long do customers have to ask for a refund?', options: {}, checks: [contains('30 days')], ...over,
  };
  r.question_key = questionKey(r, null);
  return r;
}

const stored = (over: Parameters<typeof sampleWith>[0] = {}) => sampleWith({ question_key: request().question_key, ...over });
const check: CheckFn = (specs, subject) => runChecks(specs, subject);
const signal = new AbortController().signal;

describe('regradeStep', () => {
  it('judges a stored answer to the same question, keeps a failed request of it, and says when the question changed or was never asked', () => {
    expect(regradeStep(request(), stored()).kind).toBe('judge');
    expect(regradeStep(request(), stored({ outcome: 'timeout' })).kind).toBe('keep');
    expect(regradeStep(request(), null)).toEqual({ kind: 'never-asked' });
    expect(regradeStep(request({ prompt: 'How long is the refund window?' }), stored())).toMatchObject({ kind: 'changed', why: 'the question changed since it was answered' });
    expect(regradeStep(request({ options: { additional_context: 'plan: pro' } }), stored({ outcome: 'timeout' }))).toMatchObject({ kind: 'changed' });
    const { question_key: _key, ...older } = stored();
    expect(regradeStep(request(), older)).toMatchObject({ kind: 'changed', why: expect.stringContaining('older kbbench') });
  });

  it('a check change is not a question change', () => {
    expect(regradeStep(request({ checks: [contains('31 days')] }), stored()).kind).toBe('judge');
  });
});

describe('the lines a regrade writes', () => {
  it('judges the stored answer with the current checks: its text and timings kept, the source named', async () => {
    const line = await judgeAgain(request({ checks: [contains('31 days')], tags: ['billing'] }), stored({ tags: ['old'] }), 'src-run', check, signal);
    expect(line).toMatchObject({ pass: false, reused_from: 'src-run', text: stored().text, latency_ms: stored().latency_ms, tags: ['billing'] });
    expect(line.checks).toEqual([expect.objectContaining({ type: 'contains', pass: false })]);
    const passing = await judgeAgain(request(), stored({ pass: false, not_judged: 'x' }), 'src-run', check, signal);
    expect(passing.pass).toBe(true);
    expect(passing.not_judged).toBeUndefined();
    expect((await judgeAgain(request({ checks: [] }), stored(), 'src-run', check, signal)).pass).toBe(true);
  });
  it('counts credits as --reuse-answers does: nothing spent now, the answer\'s cost saved (its first asking\'s, when it was itself reused)', async () => {
    const line = await judgeAgain(request(), stored({ credits_used: 3, credits_remaining: 97 }), 'src-run', check, signal);
    expect(line).toMatchObject({ credits_used: 0, credits_remaining: null, credits_unknown: false, credits_saved: 3 });
    const again = await judgeAgain(request(), stored({ credits_used: 0, credits_saved: 3, reused_from: 'first-run' }), 'src-run', check, signal);
    expect(again).toMatchObject({ credits_used: 0, credits_saved: 3, reused_from: 'first-run' });
    expect(await judgeAgain(request(), stored({ credits_used: null, credits_unknown: true }), 'src-run', check, signal)).toMatchObject({ credits_used: 0, credits_saved: null });
    const kept = keptLine(request(), stored({ outcome: 'timeout', credits_used: 1 }), 'src-run');
    expect(kept.credits_used).toBe(0);
    expect(kept.credits_saved).toBeUndefined();
  });

  it('a changed question: every current check not judged, with why; a failed request kept as it was', () => {
    const line = notJudgedLine(request(), stored(), 'src-run', 'the question changed since it was answered');
    expect(line.pass).toBe(false);
    expect(line.not_judged).toBe('the question changed since it was answered');
    expect(line.checks).toEqual([{ type: 'contains', pass: null, detail: 'the question changed since it was answered', not_judged: 'the question changed since it was answered' }]);
    const kept = keptLine(request(), stored({ outcome: 'timeout', pass: false }), 'src-run');
    expect(kept).toMatchObject({ outcome: 'timeout', pass: false, reused_from: 'src-run' });
  });
});
