// The `judge` check: asks a chat assistant to grade the answer against a rubric.
import type { CheckResult } from '../domain/sample.js';
import type { CheckHandler } from './types.js';

export const JUDGE_INSTRUCTION = 'Grade the ANSWER against the RUBRIC. Reply with VERDICT: PASS or VERDICT: FAIL and a reason.';

export function buildJudgePrompt(rubric: string, answer: string): string {
  return `${JUDGE_INSTRUCTION}\nRUBRIC:\n${rubric}\nANSWER:\n${answer}`;
}

export type Verdict = { verdict: 'pass' | 'fail'; reason: string } | { verdict: null; problem: string };

/**
 * Finds `VERDICT: PASS|FAIL` in a reply, tolerant of case and markdown (`**Verdict:** Pass`,
 * `## VERDICT - FAIL`). A reply that names both verdicts is treated as unparseable: guessing
 * which one the judge meant could turn a failure into a pass.
 */
export function parseVerdict(reply: string): Verdict {
  const plain = reply.replace(/[*_`#>]/g, '');
  const found = [...plain.matchAll(/\bverdict\s*[:=\-–—]?\s*(pass|fail)(?:ed|es)?\b/gi)];
  const verdicts = new Set(found.map((m) => (m[1] ?? '').toLowerCase() as 'pass' | 'fail'));
  if (verdicts.size === 0) return { verdict: null, problem: 'the judge reply has no "VERDICT: PASS" or "VERDICT: FAIL"' };
  if (verdicts.size > 1) return { verdict: null, problem: 'the judge reply gives both VERDICT: PASS and VERDICT: FAIL' };
  const [verdict] = verdicts as Set<'pass' | 'fail'>;
  const first = found[0];
  const after = first === undefined ? '' : plain.slice((first.index ?? 0) + first[0].length);
  const reason = after.replace(/^[\s.:;,\-–—]+/, '').replace(/\s+/g, ' ').trim();
  return { verdict: verdict ?? 'fail', reason };
}

function replyExcerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

export const judgeCheck: CheckHandler<'judge'> = async (spec, subject, ports) => {
  if (!ports.judge) {
    return { type: 'judge', pass: false, detail: 'a judge check needs a service to ask; none was given' };
  }
  const { rubric, ...target } = spec.value;
  let reply;
  try {
    reply = await ports.judge({ ...target, prompt: buildJudgePrompt(rubric, subject.text) });
  } catch (error) {
    return { type: 'judge', pass: false, detail: `the judge request failed: ${(error as Error).message}` };
  }
  const parsed = parseVerdict(reply.text);
  const result: CheckResult =
    parsed.verdict === null
      ? { type: 'judge', pass: false, detail: `${parsed.problem}; reply: "${replyExcerpt(reply.text)}"` }
      : {
          type: 'judge',
          pass: parsed.verdict === 'pass',
          detail: `judge says ${parsed.verdict.toUpperCase()}${parsed.reason ? `: ${replyExcerpt(parsed.reason)}` : ''}`,
        };
  if (reply.credits_used !== null) result.credits_used = reply.credits_used;
  return result;
};
