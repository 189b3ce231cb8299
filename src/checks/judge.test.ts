// The judge check: the prompt it sends, how it reads a verdict, and its credits.
import { describe, expect, it, vi } from 'vitest';
import { buildJudgePrompt, judgeCheck, parseVerdict } from './judge.js';
import type { JudgeReply } from './types.js';

const SPEC = { type: 'judge' as const, value: { rubric: 'Says 30 days', chat_id: 'chatNode-judge', model: 'gpt-4o' } };
const SUBJECT = { text: 'Within 30 days.', ttfc_ms: 1, latency_ms: 2, credits_used: 0.1 };

describe('buildJudgePrompt', () => {
  it('uses the exact documented format', () => {
    expect(buildJudgePrompt('Says 30 days', 'Within 30 days.')).toBe(
      'Grade the ANSWER against the RUBRIC. Reply with VERDICT: PASS or VERDICT: FAIL and a reason.\nRUBRIC:\nSays 30 days\nANSWER:\nWithin 30 days.',
    );
  });
});

describe('parseVerdict', () => {
  it.each([
    ['VERDICT: PASS because it says 30 days', 'pass', 'because it says 30 days'],
    ['verdict: fail - wrong number', 'fail', 'wrong number'],
    ['**Verdict:** Pass. The answer is right.', 'pass', 'The answer is right.'],
    ['## VERDICT — FAIL', 'fail', ''],
    ['Reasoning first.\n\n`VERDICT: PASSED`', 'pass', ''],
  ])('reads %j', (reply, verdict, reason) => {
    expect(parseVerdict(reply)).toEqual({ verdict, reason });
  });

  it('treats a reply without a verdict, or with both, as unparseable', () => {
    expect(parseVerdict('Looks good to me!')).toEqual({ verdict: null, problem: 'the judge reply has no "VERDICT: PASS" or "VERDICT: FAIL"' });
    expect(parseVerdict('VERDICT: PASS or VERDICT: FAIL')).toMatchObject({ verdict: null, problem: expect.stringMatching(/both/) });
    expect(parseVerdict('I would pass this')).toMatchObject({ verdict: null });
  });
});

describe('judgeCheck', () => {
  it('asks the port with the rubric target and records the judge credits', async () => {
    const judge = vi.fn(async (): Promise<JudgeReply> => ({ text: 'VERDICT: PASS. Mentions 30 days.', credits_used: 0.02 }));
    const result = await judgeCheck(SPEC, SUBJECT, { judge });
    expect(judge).toHaveBeenCalledWith({ prompt: buildJudgePrompt('Says 30 days', 'Within 30 days.'), chat_id: 'chatNode-judge', model: 'gpt-4o' });
    expect(result).toEqual({ type: 'judge', pass: true, detail: 'judge says PASS: Mentions 30 days.', credits_used: 0.02 });
  });

  it('fails, saying why, on an unparseable reply, a failed request or no port', async () => {
    const unparseable = await judgeCheck(SPEC, SUBJECT, { judge: async () => ({ text: 'Hmm, maybe.', credits_used: null }) });
    expect(unparseable).toEqual({ type: 'judge', pass: false, detail: 'the judge reply has no "VERDICT: PASS" or "VERDICT: FAIL"; reply: "Hmm, maybe."' });
    const failing = await judgeCheck(SPEC, SUBJECT, {
      judge: async () => {
        throw new Error('HTTP 500');
      },
    });
    expect(failing).toEqual({ type: 'judge', pass: false, detail: 'the judge request failed: HTTP 500' });
    expect(await judgeCheck(SPEC, SUBJECT, {})).toEqual({ type: 'judge', pass: false, detail: 'a judge check needs a service to ask; none was given' });
  });
});
