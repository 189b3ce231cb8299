import { afterEach, describe, expect, it } from 'vitest';
import { capYoungGeneration, holdYoungGeneration, newSpaceBytes, releaseYoungGeneration, YOUNG_CAP_BYTES } from './young-generation.js';

/** Objects that live a while (a sliding window), as in-flight requests do: V8 grows the new space as they survive. */
function churn(rounds: number): number {
  let window: { i: number; s: string }[] = [];
  let kept = 0;
  for (let i = 0; i < rounds; i += 1) {
    window.push({ i, s: `item ${i}` });
    if (window.length > 50_000) {
      kept += window.length;
      window = [];
    }
  }
  return kept + window.length;
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('the young generation cap', () => {
  afterEach(() => releaseYoungGeneration());

  it('keeps the new space at the cap however much survives scavenges', async () => {
    const before = newSpaceBytes();
    capYoungGeneration();
    for (let round = 0; round < 20; round += 1) {
      expect(churn(200_000)).toBe(200_000);
      await flush(); // the gc observer is told between turns
    }
    expect(newSpaceBytes()).toBeLessThanOrEqual(Math.max(before, YOUNG_CAP_BYTES));
  });

  it('lets V8 grow it again once lifted (worker threads share the flag)', async () => {
    capYoungGeneration();
    releaseYoungGeneration();
    for (let round = 0; round < 20; round += 1) {
      churn(200_000);
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
    for (let round = 0; round < 20; round += 1) {
      expect(churn(200_000)).toBe(200_000);
      await flush();
    }
    expect(newSpaceBytes()).toBeLessThanOrEqual(before);
    outer();
  });
});
