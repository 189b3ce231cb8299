// Scopes: which samples a tag scope selects, and one key for equal scopes however they are written.
import { describe, expect, it } from 'vitest';
import { matchesTags, namesOutcome, scopeKeyOf, summaryScopeOf, type ScopedSample } from './thresholds-scope.js';

const turn: ScopedSample = { model: 'm', case_id: null, thread_id: 'onboarding', turn: 2, endpoint: 'continue', method: 'get', streaming: false, outcome: 'timeout' };

describe('thresholds scope', () => {
  it('matches every tag as text', () => {
    expect(matchesTags(turn, {})).toBe(true);
    expect(matchesTags(turn, { thread: 'onboarding', turn: '2', streaming: 'false', method: 'get', outcome: 'timeout' })).toBe(true);
    expect(matchesTags(turn, { turn: '02' })).toBe(false);
    expect(matchesTags(turn, { case: 'onboarding' })).toBe(false);
    expect(matchesTags({ ...turn, turn: null, endpoint: 'create' }, { turn: 'null' })).toBe(false);
  });

  it('gives equal scopes one key, and values with commas or colons their own', () => {
    expect(scopeKeyOf({ model: 'a', outcome: 'ok' })).toBe(scopeKeyOf({ outcome: 'ok', model: 'a' }));
    expect(scopeKeyOf({ model: 'a,outcome:ok' })).not.toBe(scopeKeyOf({ model: 'a', outcome: 'ok' }));
  });

  it('knows which scopes the summary answers and which name an outcome', () => {
    expect(summaryScopeOf({})).toEqual({ model: null });
    expect(summaryScopeOf({ model: 'x' })).toEqual({ model: 'x' });
    expect(summaryScopeOf({ model: 'x', turn: '1' })).toBeNull();
    expect(namesOutcome({ outcome: 'ok' })).toBe(true);
    expect(namesOutcome({ model: 'x' })).toBe(false);
  });
});
