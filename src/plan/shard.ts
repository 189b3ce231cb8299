// `--shard i/N`: splits a plan into N disjoint parts that together are the whole plan.
import { createHash } from 'node:crypto';
import { InputError } from '../domain/errors.js';
import type { Shard } from './types.js';

/** The variable a Kubernetes Indexed Job sets in each pod: its 0-based completion index. */
export const COMPLETION_INDEX_VAR = 'JOB_COMPLETION_INDEX';

/**
 * `i/N`, or `auto/N`: i is then taken from JOB_COMPLETION_INDEX (0-based, as a Kubernetes Indexed
 * Job sets it; a CI matrix can set it too) plus one, so every pod or job runs the same command line.
 */
export function parseShard(text: string, completionIndex?: string): Shard {
  const auto = /^\s*auto\s*\/\s*(\d+)\s*$/.exec(text);
  if (auto) return autoShard(text, Number(auto[1]), completionIndex);
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new InputError(`--shard "${text}": expected i/N with 1 ≤ i ≤ N, e.g. 2/4 (or auto/N with ${COMPLETION_INDEX_VAR} set)`, { field: '--shard' });
  }
  return { index, count };
}

function autoShard(text: string, count: number, completionIndex: string | undefined): Shard {
  if (count < 1) throw new InputError(`--shard "${text}": N must be at least 1`, { field: '--shard' });
  if (completionIndex === undefined || completionIndex.trim() === '') {
    throw new InputError(`--shard "${text}" takes the shard from ${COMPLETION_INDEX_VAR} (0-based), which is not set; set it, or give i/N`, { field: '--shard' });
  }
  const index = /^\s*\d+\s*$/.test(completionIndex) ? Number(completionIndex) + 1 : NaN;
  if (!(index >= 1 && index <= count)) {
    throw new InputError(`--shard "${text}": ${COMPLETION_INDEX_VAR}=${JSON.stringify(completionIndex)} is not a whole number from 0 to ${count - 1}`, { field: '--shard' });
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
