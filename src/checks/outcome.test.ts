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
