// A replayed record's request takes the run's request options as a case does: the suite's defaults under its own, the flags' over both.
import { describe, expect, it } from 'vitest';
import { unitOf } from './executor.js';
import type { PacedTurn } from './pacing.js';

const paced = (over: Partial<PacedTurn['due']['record']> = {}): PacedTurn => ({
  due: { record: { line: 3, at: { seconds: 1 }, prompt: 'What is the refund window?', checks: [], ...over }, dueMs: 1000, pass: 1, index: 0, conversationKey: null },
  latenessMs: 0, conversationId: null, turn: null,
});

describe('a replayed record\'s request options', () => {
  it('takes --no-stream and the suite\'s defaults, its own fields over the suite\'s, the flags\' over both', () => {
    const unit = unitOf(paced({ user: 'u-7' }), null, undefined, { suite: { plaintext: true, user: 'suite-user', streaming: true }, flags: { streaming: false } });
    expect(unit.kind).toBe('case');
    expect(unit.kind === 'case' && unit.request.options).toEqual({ plaintext: true, user: 'u-7', streaming: false });
  });

  it('is the record\'s own with no layers', () => {
    const unit = unitOf(paced({ source: 'web' }), null);
    expect(unit.kind === 'case' && unit.request.options).toEqual({ source: 'web' });
  });
});
