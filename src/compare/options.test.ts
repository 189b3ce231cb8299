// Parsing of the judging flags: percentages, fractions, --fail-on lists, and errors that name the flag.
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { compareOptionsFrom, DEFAULT_COMPARE_OPTIONS, parseFailOn, parseTolerance } from './options.js';

describe('parseTolerance', () => {
  it.each([
    ['10%', 0.1],
    ['0.1', 0.1],
    [0.25, 0.25],
    ['0%', 0],
    ['150%', 1.5],
    [' 5% ', 0.05],
  ])('%s → %d', (value, expected) => {
    expect(parseTolerance(value, 'latency-tolerance')).toBeCloseTo(expected, 12);
  });

  it.each(['ten', '-5%', '%', '', '10'])('refuses %j, naming the flag', (value) => {
    expect(() => parseTolerance(value, 'latency-tolerance')).toThrow(InputError);
    try {
      parseTolerance(value, 'latency-tolerance');
    } catch (error) {
      expect((error as InputError).location.field).toBe('--latency-tolerance');
    }
  });

  it('suggests the percentage for an ambiguous bare number', () => {
    expect(() => parseTolerance('10', 'credits-tolerance')).toThrow(/10%/);
  });
});

describe('parseFailOn', () => {
  it('reads a comma list, repeated flags and none', () => {
    expect(parseFailOn('regressions,latency')).toEqual(['regressions', 'latency']);
    expect(parseFailOn(['changed', 'regressions,changed'])).toEqual(['changed', 'regressions']);
    expect(parseFailOn('none')).toEqual([]);
    expect(parseFailOn(undefined)).toBeUndefined();
  });

  it('names unknown kinds and lists the known ones', () => {
    expect(() => parseFailOn('regressions,speed')).toThrow(/unknown "speed".*regressions, latency, credits, changed, missing/);
    expect(() => parseFailOn(',')).toThrow(InputError);
  });
});

describe('compareOptionsFrom', () => {
  it('fills the defaults: 10%, 5%, alpha 0.01, the default gates (changed is opt-in)', () => {
    expect(compareOptionsFrom({})).toEqual(DEFAULT_COMPARE_OPTIONS);
    expect(DEFAULT_COMPARE_OPTIONS.failOn).toEqual(['checks', 'thresholds', 'judged', 'dropped', 'regressions', 'latency', 'credits', 'missing']);
  });

  it('reads --tolerance as a percentage or a fraction', () => {
    expect(compareOptionsFrom({ tolerance: '2%' }).tolerance).toBeCloseTo(0.02, 12);
    expect(() => compareOptionsFrom({ tolerance: '2' })).toThrow(/ambiguous/);
  });

  it('refuses an alpha outside (0, 0.5)', () => {
    expect(() => compareOptionsFrom({ alpha: 0 })).toThrow(/--alpha|significance/);
    expect(() => compareOptionsFrom({ alpha: 0.7 })).toThrow(InputError);
  });
});
