import { describe, expect, it } from 'vitest';
import { sample } from '../test-support/fixtures.js';
import type { Sample } from '../domain/sample.js';
import { MAX_TRACE, RunCredits } from './run-credits.js';

const at = (s: Sample, offsetMs: number, remaining: number | null): Sample => ({ ...s, offset_ms: offsetMs, latency_ms: 10, credits_remaining: remaining });

describe('RunCredits', () => {
  it('sums per model and per turn position exactly, with mean, sd and cost per passed answer', () => {
    const c = new RunCredits();
    c.add(sample({ caseId: 'a', credits: 0.1 }));
    c.add(sample({ caseId: 'b', credits: 0.2, pass: false }));
    c.add(sample({ threadId: 't', turn: 1, credits: 0.3 }));
    c.add(sample({ threadId: 't', turn: 2, credits: 0.00001 }));
    const s = c.finish(['gpt-4o']);
    expect(s.models['gpt-4o']).toMatchObject({ requests: 4, sum: 0.60001, passed: 3, per_passed: 0.2 });
    expect(s.turns).toEqual({
      case: { requests: 2, sum: 0.3, mean: 0.15, sd: 0.07071 },
      'turn 1': { requests: 1, sum: 0.3, mean: 0.3, sd: null },
      'turn 2': { requests: 1, sum: 0.00001, mean: 0.00001, sd: null },
    });
    expect(Object.keys(s.turns)).toEqual(['case', 'turn 1', 'turn 2']);
    expect(s.money).toBeNull();
  });

  it('says where the balance came from: reported, derived from later spend, or unknown and why', () => {
    const none = new RunCredits();
    none.add(sample({ credits: 0.1 }));
    expect(none.finish([]).remaining).toMatchObject({ credits: null, source: 'unknown', detail: expect.stringMatching(/usage chunk carries credits_used alone/) });

    const reported = new RunCredits();
    reported.add(at(sample({ caseId: 'a', credits: 0.1 }), 0, 99.9));
    reported.add(at(sample({ caseId: 'b', credits: 0.2 }), 100, 99.7));
    expect(reported.finish([]).remaining).toMatchObject({ credits: 99.7, source: 'reported' });

    const derived = new RunCredits();
    derived.add(at(sample({ caseId: 'a', credits: 0.1 }), 0, 99.9));
    derived.add(at(sample({ caseId: 'b', credits: 0.25 }), 100, null));
    derived.add(at(sample({ caseId: 'c', credits: 0.05 }), 200, null));
    expect(derived.finish([]).remaining).toMatchObject({ credits: 99.6, source: 'derived' });
  });

  it('keeps the balance trace bounded, in time order, and prices the spend', () => {
    const c = new RunCredits();
    let remaining = 10_000;
    for (let i = 0; i < 5_000; i += 1) {
      remaining = Math.round((remaining - 0.01) * 1e5) / 1e5;
      c.add(at(sample({ caseId: `c${i}`, credits: 0.01 }), i, remaining));
    }
    const s = c.finish(['gpt-4o'], { price: 2, currency: 'EUR' });
    expect(s.remaining_over_run.length).toBeLessThanOrEqual(2 * MAX_TRACE);
    expect(s.remaining_over_run.map((p) => p.offset_ms)).toEqual([...s.remaining_over_run.map((p) => p.offset_ms)].sort((a, b) => a - b));
    expect(s.reconciliation).toMatchObject({ answers: 5_000, unexplained: 0, gaps: [] });
    expect(s.money).toMatchObject({ credit_price: 2, currency: 'EUR', total: 100, per_passed: 0.02, remaining: 19_900 });
  });
});
