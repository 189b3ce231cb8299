// Accuracy and Cohen's kappa against hand-computed values.
import { describe, expect, it } from 'vitest';
import { agreement } from './agreement.js';

const pairs = (spec: [boolean, boolean, number][]) => spec.flatMap(([human, grader, n]) => Array.from({ length: n }, () => ({ human, grader })));

describe('agreement', () => {
  it("computes accuracy and Cohen's kappa (20 pass/pass, 15 fail/fail, 5 + 10 disagreements: kappa 0.4)", () => {
    // po = 35/50 = 0.7; human pass 25/50, grader pass 30/50; pe = 0.5·0.6 + 0.5·0.4 = 0.5; kappa = 0.2/0.5 = 0.4.
    const a = agreement(pairs([[true, true, 20], [false, false, 15], [false, true, 10], [true, false, 5]]));
    // se = √(0.7·0.3 / (50·0.5²)) = 0.1296: 0.4 ± 0.254.
    expect(a).toEqual({ n: 50, accuracy: 0.7, kappa: 0.4, kappa_ci95: [0.146, 0.654], confusion: { both_pass: 20, both_fail: 15, grader_pass_human_fail: 10, grader_fail_human_pass: 5 } });
  });

  it('has no kappa when everyone gave one label, and nothing at all on no rows', () => {
    expect(agreement(pairs([[true, true, 4]]))).toMatchObject({ accuracy: 1, kappa: null });
    expect(agreement([])).toMatchObject({ n: 0, accuracy: null, kappa: null });
  });
});
