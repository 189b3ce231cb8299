import { describe, expect, it } from 'vitest';
import { graderCacheOptions } from './grader-flags.js';

describe('graderCacheOptions', () => {
  it('reads --grader-cache DIR against the cwd, and refuses an empty value instead of taking the default cache', () => {
    expect(graderCacheOptions({ graderCache: 'cache' }, {}, '/work/p')).toEqual({ graderCacheDir: '/work/p/cache' });
    expect(graderCacheOptions({ graderCache: false }, {}, '/work/p')).toEqual({});
    expect(() => graderCacheOptions({ graderCache: '' }, {}, '/work/p')).toThrow(/expected a directory, got an empty value/);
  });
});
