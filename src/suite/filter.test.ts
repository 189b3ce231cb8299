import { describe, expect, it } from 'vitest';
import type { Suite } from '../domain/suite.js';
import { filterSuite, parseFilter, parseFilters } from './filter.js';

const c = (id: string, tags?: string[]) => ({ kind: 'case' as const, id, tags: tags ?? [] });

describe('parseFilter', () => {
  it('globs, regexes, id: and tag:', () => {
    expect(parseFilter('refund-*')(c('refund-window'))).toBe(true);
    expect(parseFilter('refund-?')(c('refund-window'))).toBe(false);
    expect(parseFilter('/^team|soc/i')(c('SOC2'))).toBe(true);
    expect(parseFilter('billing')(c('x', ['billing']))).toBe(true);
    expect(parseFilter('id:billing')(c('x', ['billing']))).toBe(false);
    expect(parseFilter('tag:bill*')(c('billing-case'))).toBe(false);
    expect(() => parseFilter('/(x/')).toThrow(/invalid regular expression/);
  });

  it('several patterns keep what any matches', () => {
    const keep = parseFilters(['a', 'tag:b'])!;
    expect([keep(c('a')), keep(c('z', ['b'])), keep(c('z'))]).toEqual([true, true, false]);
  });
});

describe('filterSuite', () => {
  it('keeps matching cases (by position) and threads, in order', () => {
    const suite = { cases: [{ id: 'a' }, { id: 'b', tags: ['t'] }, { id: 'c' }], threads: [{ id: 'th', tags: ['t'] }, { id: 'u' }] } as unknown as Suite;
    const narrowed = filterSuite(suite, parseFilter('tag:t'));
    expect([...narrowed.cases].map((x) => x.id)).toEqual(['b']);
    expect(narrowed.cases.at(-1)?.id).toBe('b');
    expect(narrowed.threads.map((t) => t.id)).toEqual(['th']);
  });
});
