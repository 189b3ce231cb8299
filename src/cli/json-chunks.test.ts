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

  it('writes a top-level iterable that is not an array as that array, reading it once', () => {
    let passes = 0;
    const lazy = (n: number): Iterable<unknown> => ({
      *[Symbol.iterator]() {
        passes += 1;
        for (let i = 0; i < n; i += 1) yield { id: `r${i}`, skip: undefined };
      },
    });
    for (const n of [0, 1, 7]) {
      for (const per of [1, 3, 2000]) {
        passes = 0;
        const text = [...jsonChunks({ head: 1, requests: lazy(n), tail: [] }, per)].join('\n');
        expect(text).toBe(JSON.stringify({ head: 1, requests: [...lazy(n)], tail: [] }, null, 2));
        expect(passes).toBe(2);
      }
    }
  });
});
