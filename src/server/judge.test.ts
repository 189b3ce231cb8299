import { describe, expect, it } from 'vitest';
import { judgeAnswer, parseJudgePrompt, quotedPhrases } from './judge.js';

describe('judging an answer against a rubric', () => {
  it('splits the prompt into rubric and answer, in either order', () => {
    expect(parseJudgePrompt('RUBRIC: say hi\nANSWER:\nhi there')).toEqual({ rubric: 'say hi', answer: 'hi there' });
    expect(parseJudgePrompt('answer: hi there\nrubric: say hi')).toEqual({ rubric: 'say hi', answer: 'hi there' });
    expect(parseJudgePrompt('just a question')).toBeUndefined();
  });

  it('requires every quoted phrase, case and punctuation aside', () => {
    expect(quotedPhrases('Mention "30 days" and “original payment method”.')).toEqual(['30 days', 'original payment method']);
    const answer = 'Refunds are paid to the Original Payment Method within 30 days.';
    const pass = judgeAnswer(`RUBRIC:\nMention "30 days" and "original payment method".\nANSWER:\n${answer}`);
    expect(pass).toMatch(/^VERDICT: PASS\nReason: .+$/);
    const fail = judgeAnswer(`RUBRIC:\nMention "30 days" and "store credit".\nANSWER:\n${answer}`);
    expect(fail).toBe('VERDICT: FAIL\nReason: the answer is missing "store credit".');
  });

  it('falls back to the rubric’s content words, ignoring words about answering', () => {
    const rubric = 'The answer must mention the refund window of 30 days.';
    expect(judgeAnswer(`RUBRIC: ${rubric}\nANSWER: Our refund window is 30 days.`)).toMatch(/^VERDICT: PASS/);
    expect(judgeAnswer(`RUBRIC: ${rubric}\nANSWER: We do not give money back.`)).toMatch(/^VERDICT: FAIL\nReason: 0% of rubric terms found/);
  });

  it('fails a malformed prompt with a reason', () => {
    expect(judgeAnswer('Is this good?')).toMatch(/^VERDICT: FAIL\nReason: the prompt needs/);
    expect(judgeAnswer('RUBRIC: "x"\nANSWER:')).toBe('VERDICT: FAIL\nReason: the answer is empty.');
  });
});
