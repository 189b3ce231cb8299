// One planned request of a regrade against the source run's stored line: judged again, kept, not judged, or never asked.
import type { CheckResult, Sample } from '../domain/sample.js';
import { itemOutcome } from '../checks/outcome.js';
import type { CheckFn } from '../runner/index.js';
import type { PlanRequest } from '../plan/types.js';
import { lineAnswers, MISMATCH_WORDS, NOTHING_SPENT, savedCredits } from '../store/answer-key.js';

/** What a regrade does with one planned request. */
export type RegradeStep =
  | { kind: 'judge'; stored: Sample }
  /** A failed or skipped request of the same question: there is no answer to judge; its line stands. */
  | { kind: 'keep'; stored: Sample }
  | { kind: 'changed'; stored: Sample; why: string }
  | { kind: 'never-asked' };

/** Decides from the stored line (null: the source has none) and the request as planned now. */
export function regradeStep(request: PlanRequest, stored: Sample | null): RegradeStep {
  if (stored === null) return { kind: 'never-asked' };
  const question = request.question_key ?? '';
  const mismatch = lineAnswers(stored, question);
  if (mismatch === null) return { kind: 'judge', stored };
  if (mismatch === 'not-answered') {
    // A failure of the same question stands as recorded; one of another question says so.
    if (stored.question_key === undefined || stored.question_key === question) return { kind: 'keep', stored };
    return { kind: 'changed', stored, why: MISMATCH_WORDS['question-changed'] };
  }
  return { kind: 'changed', stored, why: MISMATCH_WORDS[mismatch] };
}

/**
 * The stored line as this run's: the suite's current labels for it (tags, expect_fail, repeat_pass),
 * the source run named, its earlier verdict cleared (the checks decide it again).
 */
function carried(stored: Sample, request: PlanRequest, sourceRunId: string): Sample {
  const {
    tags: _tags, expected_failure: _expected, repeat_pass: _repeatPass, not_judged: _notJudged, score: _score, person: _person, grader_pass: _graderPass,
    credits_saved: _saved, credits_invalid: _invalid, ...rest
  } = stored;
  // Nothing is sent again: no credits spent now, as for --reuse-answers (judgeAgain says what the answer saved).
  const line: Sample = { ...rest, ...NOTHING_SPENT, checks: [], pass: false, reused_from: stored.reused_from ?? sourceRunId };
  if (request.tags !== undefined) line.tags = [...request.tags];
  if (request.expected_failure !== undefined) line.expected_failure = request.expected_failure;
  if (request.repeat_pass !== undefined) line.repeat_pass = request.repeat_pass;
  return line;
}

/** A stored answer judged with the request's current checks (a grader asked for model-graded ones). */
export async function judgeAgain(request: PlanRequest, stored: Sample, sourceRunId: string, check: CheckFn, signal: AbortSignal): Promise<Sample> {
  const line = carried(stored, request, sourceRunId);
  // The answer is reused: it saves what it cost when asked, counted as --reuse-answers counts it.
  line.credits_saved = savedCredits(stored);
  if (request.checks.length === 0) {
    line.pass = true;
    return line;
  }
  const checks = await check(request.checks, stored, signal);
  line.checks = checks;
  const outcome = itemOutcome(checks, request.score_threshold);
  line.pass = outcome.pass;
  if (outcome.score !== undefined) line.score = outcome.score;
  if (outcome.not_judged !== undefined) line.not_judged = outcome.not_judged;
  return line;
}

/** A stored line kept as recorded (a failed request), in this run's labels. */
export function keptLine(request: PlanRequest, stored: Sample, sourceRunId: string): Sample {
  const line = carried(stored, request, sourceRunId);
  line.checks = stored.checks;
  return line;
}

/** A stored answer to another question: shown, each current check not judged, saying why. */
export function notJudgedLine(request: PlanRequest, stored: Sample, sourceRunId: string, why: string): Sample {
  const line = carried(stored, request, sourceRunId);
  const checks: CheckResult[] = request.checks.map((spec) => ({ type: spec.type, pass: null, detail: why, not_judged: why }));
  line.checks = checks;
  // An item with no check would pass on any answer: it is not judged either, the answer is another question's.
  line.not_judged = why;
  return line;
}
