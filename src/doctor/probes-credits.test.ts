import { describe, expect, it } from 'vitest';
import type { AnswerSeen } from './context.js';
import { remainingGaps } from './probes-credits.js';

const seen = (creditsUsed: number | null, creditsRemaining: number | null, probe = 'p'): AnswerSeen => ({ probe, model: 'm', creditsUsed, creditsRemaining });

describe('remainingGaps', () => {
  it('public-facts.md example: 1853.74585 then 0.02885 used leaves 1853.717', () => {
    expect(remainingGaps([seen(0.04975, 1853.74585), seen(0.02885, 1853.717)])).toEqual({ checked: 1, gaps: [] });
  });

  it('a step that falls by more than it used is a gap, named by its probe', () => {
    const { checked, gaps } = remainingGaps([seen(0.01, 10), seen(0.01, 9.98, 'ask.get')]);
    expect(checked).toBe(1);
    expect(gaps[0]).toMatch(/^ask\.get: 10 − 0\.01 ≠ 9\.98/);
  });

  it('an answer without remaining (a usage chunk) is added to the next step; one without used starts the chain again', () => {
    expect(remainingGaps([seen(0.1, 5), seen(0.2, null), seen(0.3, 4.5)])).toEqual({ checked: 1, gaps: [] });
    expect(remainingGaps([seen(0.1, 5), seen(null, null), seen(0.3, 1)])).toEqual({ checked: 0, gaps: [] });
  });

  it('exact in 1e-5 units: no float drift over many answers', () => {
    const answers = Array.from({ length: 50 }, (_, i) => seen(0.00001 * 7, 100 - 0.00007 * (i + 1)));
    expect(remainingGaps(answers)).toEqual({ checked: 49, gaps: [] });
  });
});
