// Unit tests: the one credit rule, and NaN/Infinity read as values to judge rather than fatal JSON.
import { describe, expect, it } from 'vitest';
import { MAX_CREDIT_VALUE, parseJsonLenient, readCredits } from './credit-value.js';

describe('readCredits', () => {
  it('believes finite values from 0 to the bound', () => {
    expect(readCredits(0.0123, 99)).toEqual({ creditsUsed: 0.0123, creditsRemaining: 99, invalid: null });
    expect(readCredits(0, undefined)).toEqual({ creditsUsed: 0, creditsRemaining: null, invalid: null });
    expect(readCredits(MAX_CREDIT_VALUE, 0).invalid).toBeNull();
  });

  it('marks anything else invalid with the value seen, and never passes it on', () => {
    expect(readCredits(-5, 10)).toEqual({ creditsUsed: null, creditsRemaining: 10, invalid: 'credits_used -5' });
    expect(readCredits(1e308, 1).invalid).toBe('credits_used 1e+308');
    expect(readCredits(null, 1).invalid).toBe('credits_used null');
    expect(readCredits('NaN', 1).invalid).toBe('credits_used NaN');
    expect(readCredits('0.1', 1).invalid).toBe('credits_used 0.1');
    expect(readCredits(0.1, -1)).toEqual({ creditsUsed: 0.1, creditsRemaining: null, invalid: 'credits_remaining -1' });
    expect(readCredits(Infinity, undefined).creditsUsed).toBeNull();
  });

  it('shows no text from outside but numbers: an echoed key is said to be a string, not repeated', () => {
    expect(readCredits('kb-live-7f3a9c2e51d04b8a', 'x'.repeat(50)).invalid).toBe('credits_used a string of 24 characters, credits_remaining a string of 50 characters');
    expect(readCredits({ key: 'kb-live-7f3a9c2e51d04b8a' }, ['k']).invalid).toBe('credits_used an object, credits_remaining an array');
    expect(readCredits(true, 1).invalid).toBe('credits_used true');
  });
});

describe('parseJsonLenient', () => {
  it('reads bare NaN and Infinity as strings, and leaves valid JSON and strings alone', () => {
    expect(parseJsonLenient('{"type":"usage","credits_used":NaN}')).toEqual({ type: 'usage', credits_used: 'NaN' });
    expect(parseJsonLenient('{"a":[1,-Infinity],"b":Infinity}')).toEqual({ a: [1, '-Infinity'], b: 'Infinity' });
    expect(parseJsonLenient('{"text":"NaN, Infinity"}')).toEqual({ text: 'NaN, Infinity' });
    expect(() => parseJsonLenient('{"a":')).toThrow();
  });
});
