// `--shard i/N` parsing and the hash that assigns keys to shards.
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { formatShard, parseShard, shardOf } from './shard.js';

describe('parseShard', () => {
  it('reads i/N with 1-based i', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(formatShard({ index: 3, count: 5 })).toBe('3/5');
  });

  it.each(['0/4', '5/4', '2', '2/0', 'a/b', '-1/3', '1/2/3', '', '1.5/3'])('refuses %j with an InputError', (text) => {
    expect(() => parseShard(text)).toThrow(InputError);
    expect(() => parseShard(text)).toThrow(/expected i\/N with 1 ≤ i ≤ N/);
  });
});

describe('parseShard auto/N (a Kubernetes Indexed Job, a CI matrix)', () => {
  it('takes i from JOB_COMPLETION_INDEX, 0-based, plus one', () => {
    expect(parseShard('auto/3', '0')).toEqual({ index: 1, count: 3 });
    expect(parseShard(' auto / 3 ', '2')).toEqual({ index: 3, count: 3 });
  });

  it.each([[undefined, /JOB_COMPLETION_INDEX \(0-based\), which is not set/], ['', /not set/], ['3', /"3" is not a whole number from 0 to 2/], ['-1', /from 0 to 2/], ['x', /from 0 to 2/], ['1.0', /from 0 to 2/]])(
    'refuses JOB_COMPLETION_INDEX=%j with an InputError naming it',
    (env, message) => {
      expect(() => parseShard('auto/3', env)).toThrow(InputError);
      expect(() => parseShard('auto/3', env)).toThrow(message);
    },
  );

  it('refuses auto/0', () => {
    expect(() => parseShard('auto/0', '0')).toThrow(/N must be at least 1/);
  });
});

describe('shardOf', () => {
  it('is deterministic and in range', () => {
    for (const key of ['case:a|model:gpt-4o|r1', 'thread:t|model:default|r2', '']) {
      const shard = shardOf(key, 5);
      expect(shard).toBeGreaterThanOrEqual(1);
      expect(shard).toBeLessThanOrEqual(5);
      expect(shardOf(key, 5)).toBe(shard);
      expect(shardOf(key, 1)).toBe(1);
    }
  });
});
