// How far a grader agrees with people: accuracy and Cohen's kappa over pass/fail labels.

export interface Agreement {
  /** Rows both a person and the grader judged. */
  n: number;
  accuracy: number | null;
  /** Cohen's kappa: agreement beyond chance (1 perfect, 0 chance, below 0 worse than chance); null when undefined. */
  kappa: number | null;
  /** Both pass, both fail, grader pass where the person failed it, grader fail where the person passed it. */
  confusion: { both_pass: number; both_fail: number; grader_pass_human_fail: number; grader_fail_human_pass: number };
}

export function agreement(pairs: readonly { human: boolean; grader: boolean }[]): Agreement {
  const c = { both_pass: 0, both_fail: 0, grader_pass_human_fail: 0, grader_fail_human_pass: 0 };
  for (const { human, grader } of pairs) {
    if (human && grader) c.both_pass++;
    else if (!human && !grader) c.both_fail++;
    else if (grader) c.grader_pass_human_fail++;
    else c.grader_fail_human_pass++;
  }
  const n = pairs.length;
  if (n === 0) return { n, accuracy: null, kappa: null, confusion: c };
  const observed = (c.both_pass + c.both_fail) / n;
  const humanPass = (c.both_pass + c.grader_fail_human_pass) / n;
  const graderPass = (c.both_pass + c.grader_pass_human_fail) / n;
  const expected = humanPass * graderPass + (1 - humanPass) * (1 - graderPass);
  // Everyone gave one label only: chance agreement is 1 and kappa is undefined (0/0), unless they differ.
  const kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  return { n, accuracy: round(observed), kappa: kappa === null ? null : round(kappa), confusion: c };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
