// Word diffs of answers: the changed fact alone is marked, whitespace is not a change, huge diffs stay bounded.
import { describe, expect, it } from 'vitest';
import { diffSides, MAX_DIFF_CHARS, sameAnswer, wordDiff } from './text-diff.js';

describe('wordDiff', () => {
  it('marks only the changed word', () => {
    const parts = wordDiff('We give a full refund within 30 days.', 'We give a full refund within 45 days.');
    expect(parts).toEqual([
      { op: '=', text: 'We give a full refund within ' },
      { op: '-', text: '30' },
      { op: '+', text: '45' },
      { op: '=', text: ' days.' },
    ]);
  });

  it('rebuilds both answers from its sides', () => {
    const base = 'Plans: Starter, Team.\n\nSources: plans.md';
    const head = 'Plans: Starter, Team and Business.\n\nSources: plans.md, pricing.md';
    const { base: b, head: h } = diffSides(wordDiff(base, head));
    expect(b.map((p) => p.text).join('')).toBe(base);
    expect(h.map((p) => p.text).join('')).toBe(head);
  });

  it('returns one kept part for equal texts and nothing for two empty ones', () => {
    expect(wordDiff('same', 'same')).toEqual([{ op: '=', text: 'same' }]);
    expect(wordDiff('', '')).toEqual([]);
  });

  it('gives up on a huge rewrite with a whole replacement, and keeps text beyond the diffed part', () => {
    const words = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');
    const base = words('a', 3000);
    const head = words('b', 3000);
    const parts = wordDiff(base, head);
    expect(parts.filter((p) => p.op === '-').map((p) => p.text).join('')).toBe(base);
    expect(parts.filter((p) => p.op === '+').map((p) => p.text).join('')).toBe(head);
    const long = `${'x '.repeat(MAX_DIFF_CHARS)}tail`;
    const tailParts = wordDiff(long, `${long} more`);
    expect(diffSides(tailParts).head.map((p) => p.text).join('')).toBe(`${long} more`);
  });
});

describe('sameAnswer', () => {
  it('ignores whitespace-only differences', () => {
    expect(sameAnswer('a  b\n', 'a b')).toBe(true);
    expect(sameAnswer('a b', 'a c')).toBe(false);
  });
});
