import { describe, expect, it } from 'vitest';
import { linkModels, PRIOR_SHAPE_VAR } from './model-ratio.js';

const costs = (entries: Record<string, Record<string, number>>) =>
  new Map(Object.entries(entries).map(([m, c]) => [m, new Map(Object.entries(c).map(([k, mean]) => [k, { mean }]))]));

describe('linkModels', () => {
  it('predicts an item one model was not asked from another model\'s cost times their ratio over the shared items', () => {
    const links = linkModels(costs({ big: { a: 2, b: 4, x: 10 }, small: { a: 1, b: 2, y: 3 } }));
    expect(links.borrowed.get('big')).toEqual([expect.objectContaining({ key: 'y', credits: 6, from: 'small' })]);
    expect(links.borrowed.get('small')).toEqual([expect.objectContaining({ key: 'x', credits: 5, from: 'big' })]);
    // Two shared items with the same ratio: a shape scatter of 0, weighed with the prior.
    expect(links.shapeVar).toBeCloseTo((2 * PRIOR_SHAPE_VAR) / 3, 10);
    expect(links.borrowed.get('big')![0]!.ratioRelVar).toBeCloseTo(links.shapeVar / 2, 10);
  });

  it('borrows nothing between models that share no item (sampled apart)', () => {
    const links = linkModels(costs({ p: { a: 1 }, q: { b: 2 } }));
    expect(links.borrowed.get('p')).toEqual([]);
    expect(links.borrowed.get('q')).toEqual([]);
    expect(links.shapeVar).toBeCloseTo(PRIOR_SHAPE_VAR, 10);
  });

  it('takes a scattered ratio for what it is: the shape variance grows', () => {
    const links = linkModels(costs({ p: { a: 1, b: 1, c: 1 }, q: { a: 1, b: 3, c: 0.3 } }));
    expect(links.shapeVar).toBeGreaterThan(PRIOR_SHAPE_VAR);
  });
});
