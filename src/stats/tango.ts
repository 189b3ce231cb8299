// Tango's score interval for a difference of paired proportions, and the McNemar score test it inverts.
import { twoSidedNormalP } from './normal.js';
import { normalQuantile } from './wilson.js';

/**
 * Why a score interval: a bootstrap or a Wald interval of a paired difference with no discordant
 * question is [0, 0] (the data are a constant), and with few it is far too narrow. Tango's
 * asymptotic score interval (Tango 1998, Statistics in Medicine 17:891–908; recommended by
 * Fagerland, Lydersen & Laake 2014, Stat Methods Med Res 23:137–157) inverts the score test, so 15
 * questions both models pass give about ±20 points, and the interval excludes zero exactly when the
 * McNemar score test (its value at Δ = 0) rejects: the interval and the call are one method.
 *
 * `bOnly`: questions only b passed; `aOnly`: only a passed; `n`: all questions. Δ = (bOnly − aOnly)/n.
 */
export function tangoInterval(aOnly: number, bOnly: number, n: number, confidence = 0.95): [number, number] {
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const estimate = (bOnly - aOnly) / n;
  // The score statistic falls as Δ rises: the limits are where it crosses +z and −z.
  const lower = estimate <= -1 ? -1 : rootOf((delta) => tangoScore(aOnly, bOnly, n, delta) - z, -1, estimate);
  const upper = estimate >= 1 ? 1 : rootOf((delta) => tangoScore(aOnly, bOnly, n, delta) + z, estimate, 1);
  return [lower, upper];
}

/** Tango's score statistic at Δ, with the restricted maximum-likelihood estimate of the "only a" cell. */
export function tangoScore(aOnly: number, bOnly: number, n: number, delta: number): number {
  const a2 = 2 * n;
  const b2 = -bOnly - aOnly + (2 * n - bOnly + aOnly) * delta;
  const c2 = -aOnly * delta * (1 - delta);
  const pAOnly = (Math.sqrt(Math.max(0, b2 * b2 - 4 * a2 * c2)) - b2) / (2 * a2);
  const variance = n * (2 * pAOnly + delta * (1 - delta));
  const numerator = bOnly - aOnly - n * delta;
  if (!(variance > 0)) return numerator === 0 ? 0 : numerator > 0 ? Infinity : -Infinity;
  return numerator / Math.sqrt(variance);
}

/** The McNemar score test (no continuity correction; Fagerland et al. 2013 find it holds its size): two-sided p. */
export function mcnemarScoreP(aOnly: number, bOnly: number): number {
  const discordant = aOnly + bOnly;
  if (discordant === 0) return 1;
  return twoSidedNormalP((bOnly - aOnly) / Math.sqrt(discordant));
}

/** Bisection of a decreasing function's root in [lo, hi]: 100 halvings, never diverges. */
function rootOf(f: (x: number) => number, lo: number, hi: number): number {
  if (f(lo) <= 0) return lo;
  if (f(hi) >= 0) return hi;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
