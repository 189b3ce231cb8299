// Grading apart from the answers: checks judged from the grader-verdict cache are counted, per grader and in all.
import { describe, expect, it } from 'vitest';
import type { CheckResult, Sample } from '../domain/sample.js';
import { createGraderStats } from './grader-stats.js';

const sampleWith = (checks: CheckResult[]): Sample => ({ checks } as unknown as Sample);

describe('createGraderStats', () => {
  it('counts cached verdicts, and says nothing of a cache when none was used', () => {
    const stats = createGraderStats();
    stats.add(sampleWith([{ type: 'judge', pass: true, detail: '', grader: 'g', grader_tokens: 40 }]));
    expect(stats.result()).toEqual({ graders: [{ grader: 'g', checks: 1, not_judged: 0, credits_used: 0, tokens: 40 }], credits_used: 0, tokens: 40 });
    stats.add(sampleWith([{ type: 'judge', pass: false, detail: '', grader: 'g', cached: true }, { type: 'contains', pass: true, detail: '' }]));
    expect(stats.result()).toEqual({ graders: [{ grader: 'g', checks: 2, not_judged: 0, credits_used: 0, tokens: 40, cached: 1 }], credits_used: 0, tokens: 40, cached: 1 });
  });
});
