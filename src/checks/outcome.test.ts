// An item's state from its checks: a failure wins, then not judged, then pass.
import { describe, expect, it } from 'vitest';
import { itemOutcome } from './outcome.js';

describe('itemOutcome', () => {
  it('fails on any failed check, is not judged when none failed but one was not judged, else passes', () => {
    const ok = { type: 'contains', pass: true, detail: '' };
    const bad = { type: 'contains', pass: false, detail: '' };
    const unknown = { type: 'judge', pass: null, detail: '', not_judged: 'the grader request failed: HTTP 500' };
    expect(itemOutcome([ok, bad, unknown])).toEqual({ pass: false });
    expect(itemOutcome([ok, unknown])).toEqual({ pass: false, not_judged: 'judge: the grader request failed: HTTP 500' });
    expect(itemOutcome([ok])).toEqual({ pass: true });
    expect(itemOutcome([])).toEqual({ pass: true });
  });
});

describe('promptfoo scoring (weight, threshold)', () => {
  const check = (pass: boolean | null, weight?: number) => ({ type: 'contains', pass, detail: '', ...(weight === undefined ? {} : { weight }) });

  it('passes on the weighted mean reaching the threshold, failed checks and all', () => {
    expect(itemOutcome([check(true, 3), check(false, 1)], 0.75)).toEqual({ pass: true, score: 0.75 });
    expect(itemOutcome([check(true, 1), check(false, 3)], 0.75)).toEqual({ pass: false, score: 0.25 });
  });

  it('without a threshold every check of weight above 0 must pass; weight 0 is reported only', () => {
    expect(itemOutcome([check(true, 2), check(false, 0)])).toEqual({ pass: true, score: 1 });
    expect(itemOutcome([check(true, 2), check(false, 1)])).toEqual({ pass: false, score: 2 / 3 });
  });

  it('leaves checks not judged out of the mean and the item not judged below the threshold', () => {
    expect(itemOutcome([check(false, 1), { ...check(null, 1), not_judged: 'no grader' }], 0.5)).toMatchObject({ pass: false, score: 0, not_judged: 'contains: no grader' });
  });
});
