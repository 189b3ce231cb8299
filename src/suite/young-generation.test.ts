import { describe, expect, it } from 'vitest';
import { holdSmallYoungGeneration, withSmallYoungGeneration } from './young-generation.js';

describe('holding the young generation small', () => {
  it('gives back what the read returns or throws, and nested holds release once each', () => {
    const release = holdSmallYoungGeneration();
    expect(withSmallYoungGeneration(() => 42)).toBe(42);
    expect(() => withSmallYoungGeneration(() => {
      throw new Error('bad suite');
    })).toThrow('bad suite');
    release();
    release(); // a second call is a no-op, not a second release of another holder
    expect(withSmallYoungGeneration(() => 'again')).toBe('again');
  });
});
