// --judge-sample P: during a load run, grade a seeded share of the answers' model-graded checks so a
// long test's grader spend stays bounded; the others are recorded not judged (never passed).

export { isNotSampled, NOT_SAMPLED, notSampledReason } from '../domain/sample.js';

/**
 * Whether the answer with this key (its item id: stable across resumes and shards) is in the share:
 * the same seed and share always pick the same answers, and a larger share keeps every answer a
 * smaller one picked.
 */
export function inJudgeSample(key: string, share: number, seed = 0): boolean {
  if (share >= 1) return true;
  return unitHash(`${seed}\u0000${key}`) < share;
}

/** FNV-1a, then murmur3's finaliser (FNV's low bits alone follow the last characters): a uniform draw in [0, 1). */
function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
}
