// The verdict reports give an answer: a person's label first (the grader's kept beside it); else its
// checks, without those of a model-graded type that has not earned its gate (graders/calibration.ts).
import { itemOutcome } from '../checks/outcome.js';
import type { Sample } from '../domain/sample.js';
import type { GraderCalibration } from '../domain/run.js';

export function reviewedSample(sample: Sample, label: { human: boolean; note: string } | undefined, calibration: GraderCalibration | undefined): Sample {
  let out = sample;
  const ungated = calibration ? sample.checks.filter((c) => calibration.types[c.type]?.gating === false) : [];
  if (ungated.length > 0) {
    const checks = sample.checks.map((c) => {
      const standing = calibration!.types[c.type];
      return standing && !standing.gating ? { ...c, not_gating: standing.reason } : c;
    });
    out = { ...sample, checks };
    if (sample.outcome === 'ok') {
      const outcome = itemOutcome(checks.filter((c) => c.not_gating === undefined));
      out.pass = outcome.pass;
      if (outcome.not_judged === undefined) delete out.not_judged;
      else out.not_judged = outcome.not_judged;
      if (outcome.pass !== sample.pass) out.grader_pass = sample.pass;
    }
  }
  if (label === undefined) return out;
  const { not_judged: _dropped, ...rest } = out;
  return { ...rest, pass: label.human, person: { pass: label.human, note: label.note }, grader_pass: out.grader_pass ?? sample.pass };
}
