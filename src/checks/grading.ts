// The grading protocol: a prompt asking for a JSON verdict, a reader that also takes the older
// `VERDICT: PASS/FAIL` form, one re-ask when a reply does not parse, and a majority of votes.
import type { CheckResult } from '../domain/sample.js';
import { parseGraderReply, QUOTING_INSTRUCTION, quoteSection, type GraderVerdict } from './grader-reply.js';
import type { CheckPorts, JudgeReply, JudgeRequest } from './types.js';

export { parseGraderReply, type GraderVerdict } from './grader-reply.js';

export const GRADER_INSTRUCTION =
  'You are grading an answer. Reply with one JSON object and nothing else: {"pass": true or false, "score": a number from 0 to 1, "reason": "one sentence"}. ' +
  QUOTING_INSTRUCTION;

/** Said before asking again, when the first reply could not be read. */
export const REASK_INSTRUCTION = 'Your previous reply could not be read. Reply with the JSON object only, for example {"pass": false, "score": 0.2, "reason": "…"}.';

/** A grading prompt: the instruction, the task, then each section as `NAME:` and its text, quoted (grader-reply.ts). */
export function buildGradingPrompt(task: string, sections: readonly (readonly [string, string])[]): string {
  return [GRADER_INSTRUCTION, `TASK: ${task}`, ...sections.map(([name, text]) => quoteSection(name, text))].join('\n');
}

/** Replies kept in the result line are cut here: a babbling grader must not bloat results.ndjson. */
export const MAX_KEPT_REPLY_CHARS = 2000;

const keep = (text: string): string => (text.length > MAX_KEPT_REPLY_CHARS ? `${text.slice(0, MAX_KEPT_REPLY_CHARS)}…` : text);

interface Spent {
  credits: number;
  creditsKnown: boolean;
  tokens: number;
  grader?: string;
  replies: string[];
}

/** A verdict may be reinterpreted by its check (factuality's categories). */
export type VerdictRule = (verdict: Extract<GraderVerdict, { pass: boolean }>) => Extract<GraderVerdict, { pass: boolean }>;

async function askOnce(ask: NonNullable<CheckPorts['judge']>, request: JudgeRequest, spent: Spent): Promise<JudgeReply> {
  const reply = await ask(request);
  spent.replies.push(keep(reply.text));
  if (reply.credits_used !== null) {
    spent.credits += reply.credits_used;
    spent.creditsKnown = true;
  }
  spent.tokens += reply.tokens ?? 0;
  if (reply.grader !== undefined) spent.grader = reply.grader;
  return reply;
}

/** One vote: ask, and ask once more when the reply does not parse. A failed request is a vote not judged. */
async function vote(ask: NonNullable<CheckPorts['judge']>, request: JudgeRequest, spent: Spent, rule: VerdictRule): Promise<GraderVerdict> {
  try {
    const first = parseGraderReply((await askOnce(ask, request, spent)).text, request.prompt);
    if (first.pass !== null) return rule(first);
    const second = parseGraderReply((await askOnce(ask, { ...request, prompt: `${request.prompt}\n${REASK_INSTRUCTION}` }, spent)).text, request.prompt);
    if (second.pass !== null) return rule(second);
    return { pass: null, problem: `${second.problem}, twice` };
  } catch (error) {
    return { pass: null, problem: `the grader request failed: ${(error as Error).message}` };
  }
}

/** The majority of `votes` (odd); without a strict majority of judged votes, the check is not judged. */
function majority(verdicts: readonly GraderVerdict[]): GraderVerdict {
  const judged = verdicts.filter((v): v is Extract<GraderVerdict, { pass: boolean }> => v.pass !== null);
  const passes = judged.filter((v) => v.pass);
  const fails = judged.filter((v) => !v.pass);
  const half = verdicts.length / 2;
  const winner = passes.length > half ? passes : fails.length > half ? fails : null;
  if (winner === null) {
    const problems = verdicts.filter((v): v is Extract<GraderVerdict, { pass: null }> => v.pass === null).map((v) => v.problem);
    const counts = `${passes.length} pass, ${fails.length} fail, ${problems.length} not judged`;
    return { pass: null, problem: verdicts.length === 1 ? (problems[0] ?? counts) : `no majority of ${verdicts.length} votes (${counts})${problems[0] ? `: ${problems[0]}` : ''}` };
  }
  const scores = winner.map((v) => v.score).filter((s): s is number => s !== undefined);
  const verdict: GraderVerdict = { pass: winner[0]!.pass, reason: winner[0]!.reason };
  if (scores.length > 0) verdict.score = Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 1000) / 1000;
  if (verdicts.length > 1) verdict.reason = `${winner.length} of ${verdicts.length} votes: ${verdict.reason}`;
  return verdict;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}

/**
 * Grades through the check's port: the three-state result of one model-graded check, with the
 * grader's replies, its credits (a chat of the service) or tokens (an outside grader).
 */
export async function grade(type: string, ports: CheckPorts, request: JudgeRequest, votes = 1, rule: VerdictRule = (v) => v): Promise<CheckResult> {
  if (!ports.judge) return { type, pass: null, detail: 'not judged: no grader', not_judged: 'no grader was given to this check' };
  // Outside --judge-sample's share: not asked, not passed (judge-sample.ts).
  if (ports.notSampled !== undefined) return { type, pass: null, detail: `not judged: ${ports.notSampled}`, not_judged: ports.notSampled };
  const key = { type, request, votes };
  const recalled = await ports.verdicts?.recall(key);
  if (recalled !== undefined) return recalledVerdict(recalled);
  const result = await gradeNow(type, ports.judge, ports.graderLabel?.(request), request, votes, rule);
  if (result.pass !== null) await ports.verdicts?.keep(key, result);
  return result;
}

/** A cached verdict spent nothing this time: its credits and tokens were counted by the run that asked. */
function recalledVerdict(kept: CheckResult): CheckResult {
  const { credits_used: _credits, grader_tokens: _tokens, cached: _cached, ...verdict } = kept;
  return { ...verdict, cached: true };
}

async function gradeNow(type: string, judge: NonNullable<CheckPorts['judge']>, label: string | undefined, request: JudgeRequest, votes: number, rule: VerdictRule): Promise<CheckResult> {
  const spent: Spent = { credits: 0, creditsKnown: false, tokens: 0, replies: [], ...(label !== undefined ? { grader: label } : {}) };
  const verdicts: GraderVerdict[] = [];
  // Votes one after another: a grader that rate-limits is not hit N times at once.
  for (let i = 0; i < votes; i++) verdicts.push(await vote(judge, request, spent, rule));
  const verdict = majority(verdicts);
  const result: CheckResult =
    verdict.pass === null
      ? { type, pass: null, detail: `not judged: ${verdict.problem}`, not_judged: verdict.problem }
      : { type, pass: verdict.pass, detail: `grader says ${verdict.pass ? 'PASS' : 'FAIL'}${verdict.reason ? `: ${excerpt(verdict.reason)}` : ''}` };
  if (verdict.pass !== null && verdict.score !== undefined) result.score = verdict.score;
  if (spent.grader !== undefined) result.grader = spent.grader;
  if (spent.creditsKnown) result.credits_used = Math.round(spent.credits * 1e5) / 1e5;
  if (spent.tokens > 0) result.grader_tokens = spent.tokens;
  result.grader_replies = spent.replies;
  return result;
}
