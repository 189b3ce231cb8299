// The judge chat's JSON protocol: which grading each prompt gets, and what it answers.
import { describe, expect, it } from 'vitest';
import { asksForJson, gradeJson, parseSections } from './judge-graded.js';
import { judgeAnswer } from './judge.js';

const INSTRUCTION = 'Reply with one JSON object: {"pass": true or false, "score": 0..1, "reason": "…"}.';
const ask = (task: string, sections: [string, string][]): string => [INSTRUCTION, `TASK: ${task}`, ...sections.map(([n, t]) => `${n}:\n${t}`)].join('\n');
const grade = (prompt: string, own = ''): Record<string, unknown> => JSON.parse(gradeJson(prompt, judgeAnswer, () => own)) as Record<string, unknown>;

describe('the judge chat speaking JSON', () => {
  it('knows a JSON grading prompt from the older VERDICT one, and splits its sections', () => {
    const prompt = ask('Does the ANSWER satisfy the RUBRIC?', [['RUBRIC', 'Says "72 hours"'], ['ANSWER', 'You have 72 hours.\nReally.']]);
    expect(asksForJson(prompt)).toBe(true);
    expect(asksForJson('RUBRIC:\nx\nANSWER:\ny')).toBe(false);
    expect(parseSections(prompt)).toMatchObject({ RUBRIC: 'Says "72 hours"', ANSWER: 'You have 72 hours.\nReally.' });
  });

  it('grades a rubric', () => {
    expect(grade(ask('t', [['RUBRIC', 'Must mention "72 hours".'], ['ANSWER', 'You have 72 hours.']]))).toMatchObject({ pass: true });
    expect(grade(ask('t', [['RUBRIC', 'Must mention "72 hours".'], ['ANSWER', 'You have 48 hours.']]))).toMatchObject({ pass: false });
  });

  it('factuality: a changed number is a contradiction (D); more correct detail is a superset (B)', () => {
    const reference = 'You have 72 hours to collect a parcel.';
    expect(grade(ask('t', [['QUESTION', 'How long?'], ['REFERENCE', reference], ['ANSWER', 'You have 48 hours to collect a parcel.']]))).toMatchObject({ pass: false, category: 'D' });
    const superset = 'You have 72 hours to collect a parcel. You can extend the window once by 24 hours for €1.50 in the app.';
    expect(grade(ask('t', [['QUESTION', 'How long?'], ['REFERENCE', reference], ['ANSWER', superset]]))).toMatchObject({ pass: true, category: 'B' });
  });

  it('answer-relevance, context-faithfulness (against the CONTEXT, or the chat\'s own documents) and context-recall', () => {
    expect(grade(ask('t', [['QUESTION', 'How long can a parcel stay in the locker?'], ['ANSWER', 'A parcel stays in the locker for 72 hours.']]))).toMatchObject({ pass: true });
    expect(grade(ask('t', [['QUESTION', 'How long can a parcel stay in the locker?'], ['ANSWER', 'Our office opens at nine.']]))).toMatchObject({ pass: false });
    const context = 'Pickup window: You have 72 hours to collect a parcel from a Boxly locker.';
    const faithful = ask('Is every claim of the ANSWER supported by the CONTEXT?', [['QUESTION', 'How long?'], ['CONTEXT', context], ['ANSWER', 'Short answer:\n- You have 72 hours to collect a parcel.\nSources: collecting.md']]);
    expect(grade(faithful)).toMatchObject({ pass: true });
    const invented = ask('Is every claim of the ANSWER supported by the CONTEXT?', [['QUESTION', 'How long?'], ['CONTEXT', context], ['ANSWER', 'You have 96 hours to collect a parcel.']]);
    expect(grade(invented)).toMatchObject({ pass: false });
    const ownDocs = ask('Is every claim of the ANSWER supported by the CONTEXT?', [['QUESTION', 'How long?'], ['ANSWER', 'You have 72 hours to collect a parcel.']]);
    expect(grade(ownDocs, context)).toMatchObject({ pass: true });
    expect(grade(ask('t', [['QUESTION', 'q'], ['REFERENCE', 'A parcel may weigh at most 25 kg.'], ['CONTEXT', 'Sizes: A parcel may weigh at most 25 kg.']]))).toMatchObject({ pass: true });
    expect(grade(ask('t', [['QUESTION', 'q'], ['REFERENCE', 'A parcel may weigh at most 30 kg.'], ['CONTEXT', 'Sizes: A parcel may weigh at most 25 kg.']]))).toMatchObject({ pass: false });
  });
});
