import { describe, expect, it } from 'vitest';
import { contentTerms, stem, tokenize } from './text-terms.js';

describe('search terms', () => {
  it('tokenises words and numbers, dropping currency signs and punctuation', () => {
    expect(tokenize('The Team plan costs €29/month — SOC 2!')).toEqual(['the', 'team', 'plan', 'costs', '29', 'month', 'soc', '2']);
    expect(tokenize("Owner's address")).toEqual(['owner', 'address']);
  });

  it('brings word forms together', () => {
    expect(stem('refunds')).toBe(stem('refund'));
    expect(stem('refunded')).toBe(stem('refund'));
    expect(stem('integrations')).toBe(stem('integrate'));
    expect(stem('prices')).toBe(stem('price'));
    expect(stem('pricing')).toBe(stem('price'));
    expect(stem('encryption')).toBe(stem('encrypted'));
    expect(stem('policies')).toBe(stem('policy'));
    expect(stem('2022')).toBe('2022');
  });

  it('keeps only meaningful terms', () => {
    expect(contentTerms('What is my favourite number?')).toEqual(['favourit', 'number']);
    expect(contentTerms('How much is the second one?')).toEqual(['second']);
  });
});
