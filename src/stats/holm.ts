// Holm's step-down adjustment of a family of p-values.

/**
 * Why Holm: the chance that ANY test of a family (the pairs of models of a run, or compare's
 * latency tests) raises a false alarm stays at most alpha, so adding models does not add
 * flakiness; it is uniformly more powerful than Bonferroni and needs no independence. Nulls are skipped.
 */
export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const order = pValues
    .map((p, index) => ({ p, index }))
    .filter((e): e is { p: number; index: number } => e.p !== null)
    .sort((x, y) => x.p - y.p);
  const adjusted: (number | null)[] = pValues.map(() => null);
  const m = order.length;
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
