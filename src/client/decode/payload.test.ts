import { describe, expect, it } from 'vitest';
import type { DecodedEvent } from './events.js';
import { interpretPayload, remainingFrom, usageFrom } from './payload.js';

describe('credits in a stream', () => {
  it('reads credits_remaining beside credits_used in the usage chunk, and leaves it out when absent', () => {
    expect(usageFrom({ type: 'usage', credits_used: 0.1, credits_remaining: 99.9 })).toEqual({ kind: 'usage', creditsUsed: 0.1, creditsRemaining: 99.9 });
    expect(usageFrom({ type: 'usage', credits_used: 0.1 })).toEqual({ kind: 'usage', creditsUsed: 0.1 });
    expect(remainingFrom({ credits_remaining: '99' })).toBeUndefined();
  });

  it('reads credits from a finish chunk\'s message metadata', () => {
    const out: DecodedEvent[] = [];
    interpretPayload({ type: 'finish', finishReason: 'stop', messageMetadata: { credits_used: 0.02, credits_remaining: 50 } }, out);
    expect(out).toEqual([{ kind: 'finish', finishReason: 'stop' }, { kind: 'usage', creditsUsed: 0.02, creditsRemaining: 50 }]);
    const plain: DecodedEvent[] = [];
    interpretPayload({ type: 'finish' }, plain);
    expect(plain).toEqual([{ kind: 'finish' }]);
  });
});
