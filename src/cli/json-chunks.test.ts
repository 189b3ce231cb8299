import { describe, expect, it } from 'vitest';
import { jsonChunks } from './json-chunks.js';

describe('jsonChunks', () => {
  it('joined with newlines, is JSON.stringify(value, null, 2) exactly', () => {
    const values: Record<string, unknown>[] = [
      {},
      { a: 1 },
      { a: [], b: {}, c: null, d: undefined, e: 'x\ny', f: [1, { g: [2, 3], h: 'i' }, undefined, [4]], g: { n: { m: [1] } } },
      { requests: Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, prompt: i % 2 ? null : `p${i}` })), last: true },
    ];
    for (const value of values) {
      for (const per of [1, 3, 2000]) {
        const chunks = [...jsonChunks(value, per)];
        expect(chunks.join('\n')).toBe(JSON.stringify(value, null, 2));
        expect(chunks.every((c) => !c.endsWith('\n'))).toBe(true);
      }
    }
    expect([...jsonChunks({ requests: Array.from({ length: 25 }, (_, i) => i) }, 10)].length).toBeGreaterThan(2);
  });
});
