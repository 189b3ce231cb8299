// Ordinary least squares for the few covariates a credit forecast uses (an intercept and a slope or two).

export interface LeastSquaresFit {
  coefficients: number[];
  /** Sum of squared residuals. */
  residualSs: number;
  predict(row: readonly number[]): number;
  /** cᵀ (XᵀX)⁻¹ c: how the coefficients' uncertainty carries to a sum of predictions with covariate sum c. */
  quadraticForm(c: readonly number[]): number;
}

/** Inverts a small symmetric matrix by Gauss–Jordan; null when it is singular (collinear covariates). */
function invert(matrix: readonly number[][]): number[][] | null {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    const scale = Math.max(1e-300, ...a.map((row) => Math.abs(row[col]!)));
    if (Math.abs(a[pivot]![col]!) < 1e-10 * scale) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    for (let k = 0; k < 2 * n; k += 1) a[col]![k]! /= p;
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const factor = a[r]![col]!;
      if (factor !== 0) for (let k = 0; k < 2 * n; k += 1) a[r]![k]! -= factor * a[col]![k]!;
    }
  }
  return a.map((row) => row.slice(n));
}

/**
 * Fits y = X·β. Rows whose covariates make XᵀX singular (every item the same size, say) fall back to
 * fewer columns, down to the intercept alone (the mean).
 */
export function fitLeastSquares(rows: readonly (readonly number[])[], ys: readonly number[]): LeastSquaresFit {
  const width = rows[0]?.length ?? 1;
  for (let p = width; p >= 1; p -= 1) {
    const x = rows.map((r) => r.slice(0, p));
    const xtx = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => x.reduce((a, r) => a + r[i]! * r[j]!, 0)));
    const inverse = invert(xtx);
    if (!inverse) continue;
    const xty = Array.from({ length: p }, (_, i) => x.reduce((a, r, k) => a + r[i]! * ys[k]!, 0));
    const beta = inverse.map((row) => row.reduce((a, v, j) => a + v * xty[j]!, 0));
    const predict = (row: readonly number[]): number => beta.reduce((a, b, j) => a + b * (row[j] ?? 0), 0);
    const residualSs = x.reduce((a, r, k) => a + (ys[k]! - predict(r)) ** 2, 0);
    const quadraticForm = (c: readonly number[]): number => {
      let q = 0;
      for (let i = 0; i < p; i += 1) for (let j = 0; j < p; j += 1) q += (c[i] ?? 0) * inverse[i]![j]! * (c[j] ?? 0);
      return q;
    };
    return { coefficients: beta, residualSs, predict, quadraticForm };
  }
  return { coefficients: [0], residualSs: 0, predict: () => 0, quadraticForm: () => 0 };
}
