// is-json and contains-json on answers: whole-answer JSON, JSON inside prose, and the negations.
import { describe, expect, it } from 'vitest';
import { containsJsonCheck, findJson, isJsonCheck, notContainsJsonCheck, notIsJsonCheck } from './json.js';

const subject = (text: string) => ({ text, ttfc_ms: null, latency_ms: null, credits_used: null });

describe('JSON checks', () => {
  it('is-json passes only when the whole answer is JSON', () => {
    expect(isJsonCheck({ type: 'is-json' }, subject(' {"a": 1} '), {})).toMatchObject({ pass: true });
    expect(isJsonCheck({ type: 'is-json' }, subject('Here: {"a": 1}'), {})).toMatchObject({ pass: false });
    expect(notIsJsonCheck({ type: 'not-is-json' }, subject('plain words'), {})).toMatchObject({ pass: true });
  });

  it('contains-json finds an object or array inside prose or a code fence, strings with brackets included', () => {
    expect(findJson('Sure:\n```json\n{"story": "a } b", "n": [1, 2]}\n```')).toBe('{"story": "a } b", "n": [1, 2]}');
    expect(findJson('a {broken and then [1,2]')).toBe('[1,2]');
    expect(findJson('no json {here}')).toBeUndefined();
    expect(containsJsonCheck({ type: 'contains-json' }, subject('x [1] y'), {})).toMatchObject({ pass: true });
    expect(notContainsJsonCheck({ type: 'not-contains-json' }, subject('x [1] y'), {})).toMatchObject({ pass: false });
  });
});
