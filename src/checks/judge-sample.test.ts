import { describe, expect, it } from 'vitest';
import { grade } from './grading.js';
import { inJudgeSample, isNotSampled, notSampledReason } from './judge-sample.js';

describe('--judge-sample P: a seeded share of the answers is graded', () => {
  const keys = Array.from({ length: 10_000 }, (_, i) => `case:q-${String(i).padStart(5, '0')}|model:gpt-4o|r1`);

  it('picks about P of the answers, the same ones for a seed, a larger share keeping a smaller one\'s', () => {
    const picked = (share: number, seed = 1) => keys.filter((k) => inJudgeSample(k, share, seed));
    expect(picked(0.25).length / keys.length).toBeGreaterThan(0.235);
    expect(picked(0.25).length / keys.length).toBeLessThan(0.265);
    expect(picked(0.25)).toEqual(picked(0.25));
    const half = new Set(picked(0.5));
    expect(picked(0.25).every((k) => half.has(k))).toBe(true);
    expect(picked(0.25, 2)).not.toEqual(picked(0.25, 1));
    expect(picked(1)).toHaveLength(keys.length);
  });

  it('an answer outside the share is not judged, with the reason, and the grader is never asked', async () => {
    let asked = 0;
    const judge = () => {
      asked += 1;
      return Promise.resolve({ text: '{"pass": true, "score": 1, "reason": "ok"}', credits_used: 0.01 });
    };
    const out = await grade('llm-rubric', { judge, notSampled: notSampledReason(0.25) }, { prompt: 'grade' });
    expect(out).toMatchObject({ pass: null, not_judged: 'not sampled (--judge-sample 0.25)' });
    expect(asked).toBe(0);
    expect(isNotSampled(out.not_judged)).toBe(true);
    expect((await grade('llm-rubric', { judge }, { prompt: 'grade' })).pass).toBe(true);
  });
});
