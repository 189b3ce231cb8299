// The checks validate lists: each as read, with promptfoo's threshold, weight and metric.
import { describe, expect, it } from 'vitest';
import { checkAsRead, summarizeChecks } from './check-listing.js';

describe('checks as read', () => {
  it('gives type, value and threshold in promptfoo terms, with weight and metric when written', () => {
    expect(checkAsRead({ type: 'contains', value: 'x' })).toEqual({ type: 'contains', value: 'x' });
    expect(checkAsRead({ type: 'similar', value: { to: 'Ahoy', min: 0.8 }, weight: 2 })).toEqual({ type: 'similar', value: 'Ahoy', threshold: 0.8, weight: 2 });
    expect(checkAsRead({ type: 'levenshtein', value: { to: 'Ahoy', max: 5 }, metric: 'closeness' })).toEqual({ type: 'levenshtein', value: 'Ahoy', threshold: 5, metric: 'closeness' });
    expect(checkAsRead({ type: 'judge', value: { rubric: 'Is polite' } })).toEqual({ type: 'judge', value: 'Is polite' });
    expect(checkAsRead({ type: 'is-json' })).toEqual({ type: 'is-json', value: null });
  });

  it('summarises them on one line', () => {
    const line = summarizeChecks([checkAsRead({ type: 'contains', value: 'x' }), checkAsRead({ type: 'similar', value: { to: 'A', min: 0.6 }, weight: 2 }), checkAsRead({ type: 'is-json' })]);
    expect(line).toBe('contains "x", similar "A" ≥ 0.6 (weight 2), is-json');
  });
});
