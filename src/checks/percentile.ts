// Exact statistics over a list of numbers, with percentiles by the nearest-rank method (compare uses them per item).

/**
 * Nearest rank, as HdrHistogram's getValueAtPercentile: the smallest value such that at least
 * p% of the values are ≤ it, i.e. sorted[ceil(p/100·n) − 1]. It always returns a value that was
 * observed (no interpolation), so p(100) is the max and p(50) of [1, 2] is 1. `sorted` must be
 * ascending and non-empty.
 */
export function nearestRank(sorted: readonly number[], p: number): number {
  const exact = (p * sorted.length) / 100;
  // Multiplying before dividing keeps p(95) of 20 values at exactly 19; the small epsilon guards
  // against the ulp HdrHistogram also guards against (e.g. 99.9 × 1000).
  const rank = Math.max(1, Math.ceil(exact - 1e-9 * Math.max(1, exact)));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : sum(values) / values.length;
}

export function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}
