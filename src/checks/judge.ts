// The model-graded checks, promptfoo's names: llm-rubric (`judge`), factuality, answer-relevance,
// context-faithfulness, context-recall. Each builds a grading prompt; checks/grading.ts asks and reads.
import type { CheckResult } from '../domain/sample.js';
import type { GraderOverride } from '../domain/suite.js';
import { buildGradingPrompt, grade, type VerdictRule } from './grading.js';
import type { CheckHandler, CheckPorts, CheckSubject, JudgeRequest } from './types.js';

/** The grader named on the check itself, if any (else the run's grader answers). */
function requestOf(override: GraderOverride, prompt: string): JudgeRequest {
  const request: JudgeRequest = { prompt };
  if (override.chat_id !== undefined) request.chat_id = override.chat_id;
  if (override.board_id !== undefined) request.board_id = override.board_id;
  if (override.model !== undefined) request.model = override.model;
  return request;
}

const question = (subject: CheckSubject): string => subject.prompt ?? '';

/** The passages retrieved for the question from the suite's `knowledge:` documents; null when it names none. */
async function contextOf(ports: CheckPorts, subject: CheckSubject): Promise<string | null> {
  if (!ports.passages) return null;
  const passages = await ports.passages(question(subject));
  return passages.length === 0 ? '(no passage of the knowledge documents matches the question)' : passages.map((p, i) => `[${i + 1}] ${p}`).join('\n');
}

const notJudged = (type: string, why: string): CheckResult => ({ type, pass: null, detail: `not judged: ${why}`, not_judged: why });

export const judgeCheck: CheckHandler<'judge'> = (spec, subject, ports) => {
  const { rubric, votes } = spec.value;
  const prompt = buildGradingPrompt('Does the ANSWER satisfy the RUBRIC? pass is true only if it does.', [
    ['RUBRIC', rubric],
    ['ANSWER', subject.text],
  ]);
  return grade('judge', ports, requestOf(spec.value, prompt), votes);
};

/**
 * promptfoo's factuality categories: (A) a subset of the reference and consistent, (B) a superset
 * and consistent, (C) the same details, (D) a disagreement, (E) differences that do not matter
 * for factuality. Only a contradiction (D) fails.
 */
export const FACTUALITY_TASK =
  'Compare the factual content of the ANSWER with the REFERENCE. Add "category": one of "A" (the answer is a subset of the reference and fully consistent), ' +
  '"B" (a superset, fully consistent), "C" (the same details), "D" (the answer disagrees with the reference), "E" (they differ, but the differences do not matter for factuality). ' +
  'pass is false only for "D".';

const factualityRule: VerdictRule = (verdict) => {
  if (verdict.category === undefined || !/^[A-E]$/.test(verdict.category)) return verdict;
  const pass = verdict.category !== 'D';
  return { ...verdict, pass, reason: `category ${verdict.category}${verdict.reason ? `: ${verdict.reason}` : ''}` };
};

export const factualityCheck: CheckHandler<'factuality'> = (spec, subject, ports) => {
  const prompt = buildGradingPrompt(FACTUALITY_TASK, [
    ['QUESTION', question(subject)],
    ['REFERENCE', spec.value.reference ?? ''],
    ['ANSWER', subject.text],
  ]);
  return grade('factuality', ports, requestOf(spec.value, prompt), spec.value.votes, factualityRule);
};

export const answerRelevanceCheck: CheckHandler<'answer-relevance'> = (spec, subject, ports) => {
  const prompt = buildGradingPrompt('Does the ANSWER address the QUESTION that was asked (not another one)? pass is true only if it does.', [
    ['QUESTION', question(subject)],
    ['ANSWER', subject.text],
  ]);
  return grade('answer-relevance', ports, requestOf(spec.value, prompt), spec.value.votes);
};

export const contextFaithfulnessCheck: CheckHandler<'context-faithfulness'> = async (spec, subject, ports) => {
  const context = await contextOf(ports, subject);
  if (context === null) return notJudged('context-faithfulness', 'the suite names no knowledge documents');
  const prompt = buildGradingPrompt('Is every claim of the ANSWER supported by the CONTEXT? pass is false if any claim is not.', [
    ['QUESTION', question(subject)],
    ['CONTEXT', context],
    ['ANSWER', subject.text],
  ]);
  return grade('context-faithfulness', ports, requestOf(spec.value, prompt), spec.value.votes);
};

export const contextRecallCheck: CheckHandler<'context-recall'> = async (spec, subject, ports) => {
  const context = await contextOf(ports, subject);
  if (context === null) return notJudged('context-recall', 'the suite names no knowledge documents');
  const prompt = buildGradingPrompt('Is every fact of the REFERENCE found in the CONTEXT? pass is false if any fact is missing.', [
    ['QUESTION', question(subject)],
    ['REFERENCE', spec.value.reference ?? ''],
    ['CONTEXT', context],
  ]);
  return grade('context-recall', ports, requestOf(spec.value, prompt), spec.value.votes);
};
