// Seeded pseudo-randomness, so a service started with the same seed draws the same latencies and faults.

/** FNV-1a 32-bit hash of a string: stable across runs and platforms. */
export function hashString(text: string, seed = 0): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A uniform [0, 1) generator (mulberry32); small, fast and good enough for simulation. */
export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An independent stream per purpose, so adding a latency draw never shifts the fault sequence. */
export function deriveRandom(seed: number, purpose: string): Random {
  return createRandom(hashString(purpose, seed));
}

/** Standard normal draw by Box–Muller. */
export function normal(random: Random): number {
  const u1 = Math.max(random(), Number.MIN_VALUE);
  const u2 = random();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Log-normal draw with the given median and spread (sigma of the underlying normal). */
export function logNormal(random: Random, medianMs: number, sigma: number): number {
  return medianMs * Math.exp(sigma * normal(random));
}

/** Integer in [min, max] inclusive. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
