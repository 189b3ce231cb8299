import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codePoints } from './sample-builder.js';

describe('codePoints', () => {
  it('counts characters as a reader does, like [...text].length, surrogate pairs as one', () => {
    expect(codePoints('€🚀日本')).toBe(4);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => codePoints(text) === [...text].length), { numRuns: 500 });
  });
});
