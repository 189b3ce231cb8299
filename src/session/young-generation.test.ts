import { afterEach, describe, expect, it } from 'vitest';
import { capYoungGeneration, holdYoungGeneration, newSpaceBytes, releaseYoungGeneration, YOUNG_CAP_BYTES } from './young-generation.js';

/**
 * Objects that live a while (a sliding window), as in-flight requests do: V8 grows the new space as
 * they survive. A round is a run's turn of the event loop: a few MB at most, so the gc observer is
 * told of each growth before the next (a round of 16 MB let V8 grow the space twice in one go,
 * past a cap no run's loop meets that way: the test failed 2 runs in 3 on a loaded machine).
 */
function churn(rounds: number): number {
  let window: { i: number; s: string }[] = [];
  let kept = 0;
  for (let i = 0; i < rounds; i += 1) {
    window.push({ i, s: `item ${i}` });
    if (window.length > WINDOW) {
      kept += window.length;
      window = [];
    }
  }
  return kept + window.length;
}

const WINDOW = 50_000;
const ROUND = 25_000;
const ROUNDS = 160;

/** The gc observer's entries come two immediates after a collection: a turn of the loop or two, then a timer. */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 1));
};

describe('the young generation cap', () => {
  afterEach(() => releaseYoungGeneration());

  it('keeps the new space at the cap however much survives scavenges', async () => {
    const before = newSpaceBytes();
    capYoungGeneration();
    for (let round = 0; round < ROUNDS; round += 1) {
      expect(churn(ROUND)).toBe(ROUND);
      await flush(); // the gc observer is told between turns
    }
    expect(newSpaceBytes()).toBeLessThanOrEqual(Math.max(before, YOUNG_CAP_BYTES));
  });

  it('lets V8 grow it again once lifted (worker threads share the flag)', async () => {
    capYoungGeneration();
    releaseYoungGeneration();
    for (let round = 0; round < ROUNDS; round += 1) {
      churn(ROUND);
      await flush();
    }
    expect(newSpaceBytes()).toBeGreaterThan(YOUNG_CAP_BYTES);
  });

  it('does not grow it at all while held (validate), under the cap or not, and holds nest', async () => {
    capYoungGeneration();
    const before = newSpaceBytes();
    const outer = holdYoungGeneration();
    const inner = holdYoungGeneration();
    inner();
    inner(); // a second call is a no-op: the outer hold still stands
    for (let round = 0; round < ROUNDS; round += 1) {
      expect(churn(ROUND)).toBe(ROUND);
      await flush();
    }
    expect(newSpaceBytes()).toBeLessThanOrEqual(before);
    outer();
  });
});
