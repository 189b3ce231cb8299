// `--shard i/N`: splits a plan into N disjoint parts that together are the whole plan.
import { createHash } from 'node:crypto';
import { InputError } from '../domain/errors.js';
import type { Shard } from './types.js';

export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new InputError(`--shard "${text}": expected i/N with 1 ≤ i ≤ N, e.g. 2/4`, { field: '--shard' });
  }
  return { index, count };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The 1-based shard a key belongs to: a hash of the key, so the assignment depends on the key
 * alone (not on which other items exist) and every process computes the same partition. Keys are
 * whole units (a case item, or a thread instance with all its turns), so a conversation is never
 * split across shards.
 */
export function shardOf(key: string, count: number): number {
  const digest = createHash('sha256').update(key).digest();
  return (digest.readUInt32BE(0) % count) + 1;
}
