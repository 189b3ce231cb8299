import { describe, expect, it } from 'vitest';
import { classOf } from './stability.js';

describe('classOf: flaky means unstable when answered (issue 33, item 4)', () => {
  it('a question whose failures are 429s and timeouts failed to answer; it is not flaky', () => {
    // min-age × gpt-4o-mini, 10/15 passed: the 5 failures were request errors.
    expect(classOf({ passed: 10, failed: 0, errors: 5 })).toBe('failed_to_answer');
    expect(classOf({ passed: 0, failed: 0, errors: 3 })).toBe('failed_to_answer');
  });
  it('answered repeats that disagree are flaky, errors or not', () => {
    expect(classOf({ passed: 2, failed: 1, errors: 0 })).toBe('flaky');
    expect(classOf({ passed: 2, failed: 1, errors: 4 })).toBe('flaky');
  });
  it('answered repeats that agree are stable', () => {
    expect(classOf({ passed: 3, failed: 0, errors: 0 })).toBe('stable_pass');
    expect(classOf({ passed: 0, failed: 3, errors: 0 })).toBe('stable_fail');
    expect(classOf({ passed: 1, failed: 0, errors: 0 })).toBeNull();
  });
});
