// The standard normal's tail: erfc, and the two-sided p-value of a z statistic.

/** Complementary error function; Chebyshev fit (Numerical Recipes' erfcc), relative error < 1.2e-7 everywhere. */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
      t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const r = t * Math.exp(poly);
  return x >= 0 ? r : 2 - r;
}

/** Two-sided p of a standard normal statistic: P(|Z| ≥ |z|). */
export function twoSidedNormalP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}
