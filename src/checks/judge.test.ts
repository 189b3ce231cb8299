// The model-graded checks: what each asks its grader, and how factuality reads promptfoo's categories.
import { describe, expect, it } from 'vitest';
import { answerRelevanceCheck, contextFaithfulnessCheck, contextRecallCheck, factualityCheck, judgeCheck } from './judge.js';
import type { CheckPorts, JudgeRequest } from './types.js';

const SUBJECT = { text: 'You have 48 hours.', prompt: 'How long do I have to collect my parcel?', ttfc_ms: 1, latency_ms: 2, credits_used: 0.1 };

function replying(text: string): { ports: CheckPorts; asked: JudgeRequest[] } {
  const asked: JudgeRequest[] = [];
  return { asked, ports: { judge: async (r) => (asked.push(r), { text, credits_used: null }), passages: (q) => [`passage for ${q}`] } };
}

describe('model-graded checks', () => {
  it('llm-rubric sends the rubric and answer, and a grader named on the check', async () => {
    const { ports, asked } = replying('{"pass": true, "reason": "ok"}');
    const result = await judgeCheck({ type: 'judge', value: { rubric: 'Says 72 hours', chat_id: 'chatNode-g', model: 'gpt-4o-mini' } }, SUBJECT, ports);
    expect(result.pass).toBe(true);
    expect(asked[0]).toMatchObject({ chat_id: 'chatNode-g', model: 'gpt-4o-mini' });
    expect(asked[0]!.prompt).toMatch(/"pass"[\s\S]*RUBRIC:\n<<<RUBRIC [0-9a-f]{8}\nSays 72 hours\nRUBRIC [0-9a-f]{8}>>>\nANSWER:\n<<<ANSWER [0-9a-f]{8}\nYou have 48 hours\./);
  });

  it('factuality fails a contradiction (category D) even when the grader says pass', async () => {
    const { ports, asked } = replying('{"pass": true, "category": "D", "reason": "48 vs 72"}');
    const result = await factualityCheck({ type: 'factuality', value: { reference: 'You have 72 hours.' } }, SUBJECT, ports);
    expect(result).toMatchObject({ pass: false, detail: 'grader says FAIL: category D: 48 vs 72' });
    expect(asked[0]!.prompt).toMatch(/QUESTION:\n<<<QUESTION [0-9a-f]{8}\nHow long[\s\S]*REFERENCE:\n<<<REFERENCE [0-9a-f]{8}\nYou have 72 hours\.[\s\S]*ANSWER:/);
    const subset = await factualityCheck({ type: 'factuality', value: { reference: 'x' } }, SUBJECT, replying('{"pass": false, "category": "A"}').ports);
    expect(subset.pass).toBe(true);
  });

  it('answer-relevance sends the question; context checks send the retrieved passages', async () => {
    const relevance = replying('{"pass": true}');
    await answerRelevanceCheck({ type: 'answer-relevance', value: {} }, SUBJECT, relevance.ports);
    expect(relevance.asked[0]!.prompt).toMatch(/QUESTION:\n<<<QUESTION [0-9a-f]{8}\nHow long do I have to collect my parcel\?\nQUESTION [0-9a-f]{8}>>>\nANSWER:/);
    const faithful = replying('{"pass": false, "reason": "48 not in context"}');
    expect((await contextFaithfulnessCheck({ type: 'context-faithfulness', value: {} }, SUBJECT, faithful.ports)).pass).toBe(false);
    expect(faithful.asked[0]!.prompt).toMatch(/CONTEXT:\n<<<CONTEXT [0-9a-f]{8}\n\[1\] passage for How long do I have to collect my parcel\?/);
    const recall = replying('{"pass": true}');
    await contextRecallCheck({ type: 'context-recall', value: { reference: 'You have 72 hours.' } }, SUBJECT, recall.ports);
    expect(recall.asked[0]!.prompt).toMatch(/REFERENCE:\n<<<REFERENCE [0-9a-f]{8}\nYou have 72 hours\.\nREFERENCE [0-9a-f]{8}>>>\nCONTEXT:/);
  });

  it('a context check with no knowledge documents is not judged', async () => {
    const result = await contextFaithfulnessCheck({ type: 'context-faithfulness', value: {} }, SUBJECT, { judge: async () => ({ text: '{"pass": true}', credits_used: null }) });
    expect(result).toMatchObject({ pass: null, not_judged: 'the suite names no knowledge documents' });
  });
});
