// Unit tests: a result's outside values are redacted; its structure never is.
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../client/redact.js';
import type { Sample } from '../domain/sample.js';
import { sampleWith } from '../test-support/fixtures.js';
import { redactSample } from './redact-sample.js';

const KEY = 'sk-live-0123456789abcdef';

const sample = (overrides: Partial<Sample> = {}): Sample => sampleWith({
  item_id: 'i1', case_id: 'c', offset_ms: 1, ttfb_ms: 1, ttfc_ms: 1, last_chunk_ms: 1, finish_ms: 1, usage_ms: 1, latency_ms: 1, chunks: 1, chars: 2,
  text: 'ok', credits_used: 1, credits_remaining: 2, checks: [{ type: 'contains', pass: true, detail: 'found ok' }], ...overrides,
});

describe('redactSample', () => {
  it('scrubs the answer, the error message, the conversation id and check details', () => {
    const s = sample({ text: `key ${KEY}`, conversation_id: KEY, error: { code: 'E_SERVER', message: `echo ${KEY}` }, checks: [{ type: 'contains', pass: false, detail: `saw ${KEY}` }] });
    const out = JSON.stringify(redactSample(s, createRedactor(KEY)));
    expect(out).not.toContain(KEY);
    expect(out.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it('scrubs credits_invalid, which quotes what the service sent as credits', () => {
    const out = redactSample(sample({ credits_invalid: `credits_used ${KEY}` }), createRedactor(KEY));
    expect(out.credits_invalid).toBe('credits_used [redacted]');
  });

  it('leaves every field intact for short keys (which are not searched for)', () => {
    for (const key of ['1', 'k', 'ok', 'true', 'model', 'null', 'e']) {
      const s = sample();
      const line = JSON.stringify(redactSample(s, createRedactor(key)));
      expect(JSON.parse(line)).toEqual(s);
    }
  });

  it('returns the same object when there is nothing to redact', () => {
    const s = sample();
    expect(redactSample(s, createRedactor(KEY))).toBe(s);
  });
});
