// How far a grader agrees with people: accuracy and Cohen's kappa over pass/fail labels.
import type { AgreementFigures } from '../domain/summary.js';

/** The figures' shape is summary.json's (domain/summary.ts). */
export type Agreement = AgreementFigures;

export function agreement(pairs: readonly { human: boolean; grader: boolean }[]): Agreement {
  const c = { both_pass: 0, both_fail: 0, grader_pass_human_fail: 0, grader_fail_human_pass: 0 };
  for (const { human, grader } of pairs) {
    if (human && grader) c.both_pass++;
    else if (!human && !grader) c.both_fail++;
    else if (grader) c.grader_pass_human_fail++;
    else c.grader_fail_human_pass++;
  }
  const n = pairs.length;
  if (n === 0) return { n, accuracy: null, kappa: null, kappa_ci95: null, confusion: c };
  const observed = (c.both_pass + c.both_fail) / n;
  const humanPass = (c.both_pass + c.grader_fail_human_pass) / n;
  const graderPass = (c.both_pass + c.grader_pass_human_fail) / n;
  const expected = humanPass * graderPass + (1 - humanPass) * (1 - graderPass);
  // Everyone gave one label only: chance agreement is 1 and kappa is undefined (0/0), unless they differ.
  const kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  if (kappa === null) return { n, accuracy: round(observed), kappa: null, kappa_ci95: null, confusion: c };
  const se = Math.sqrt((observed * (1 - observed)) / (n * (1 - expected) ** 2));
  const ci: [number, number] = [round(Math.max(-1, kappa - 1.96 * se)), round(Math.min(1, kappa + 1.96 * se))];
  return { n, accuracy: round(observed), kappa: round(kappa), kappa_ci95: ci, confusion: c };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
