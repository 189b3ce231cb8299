// The verdict rule and --fail-on's vocabulary.
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, incompleteReason, parseFailOn, verdictFor } from './gates.js';

describe('verdictFor', () => {
  it('judges a completed run by its gates', () => {
    expect(verdictFor({ status: 'completed' }, false)).toBe('pass');
    expect(verdictFor({ status: 'completed' }, true)).toBe('fail');
  });

  it('leaves a completed run with checks not judged incomplete (the judged gate), unless a gate failed outright', () => {
    expect(verdictFor({ status: 'completed' }, false, true)).toBe('incomplete');
    expect(verdictFor({ status: 'completed' }, true, true)).toBe('fail');
  });

  it('never passes a run that did not finish; a threshold abort is a failure', () => {
    for (const status of ['interrupted', 'budget-exhausted', 'failed', 'running'] as const) {
      expect(verdictFor({ status }, false)).toBe('incomplete');
    }
    expect(verdictFor({ status: 'aborted', abort: { by: 'threshold', detail: 'p(95)<1' } }, false)).toBe('fail');
    expect(verdictFor({ status: 'aborted', abort: { by: 'max-errors', detail: '10 errors' } }, false)).toBe('incomplete');
  });

  it('says why a run is incomplete', () => {
    expect(incompleteReason({ status: 'running' })).toMatch(/without finishing/);
    expect(incompleteReason({ status: 'interrupted', stop_reason: 'SIGINT' })).toBe('the run stopped early (interrupted): SIGINT');
  });
});

describe('parseFailOn', () => {
  it('reads a list, none, and refuses unknown gates naming the flag', () => {
    expect(parseFailOn(undefined)).toBeUndefined();
    expect(parseFailOn('checks, thresholds,checks')).toEqual(['checks', 'thresholds']);
    expect(parseFailOn('none')).toEqual([]);
    expect(() => parseFailOn('chekcs')).toThrow(/unknown "chekcs".*checks, thresholds, judged, dropped, regressions/);
    expect(DEFAULT_GATES).not.toContain('changed');
  });
});
