// The harness's one seeded random source (arrivals, the traffic mix, compare's bootstrap), so a run with --seed repeats exactly. (The reference service keeps its own: it shares only protocol types.)

/** mulberry32: small, fast, and good enough for schedules; returns uniform numbers in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
