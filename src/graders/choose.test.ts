// Which grader grades: flags over the suite's block, a check's own chat over both; none is an input error.
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import type { CheckSpec, Suite } from '../domain/suite.js';
import { assertGraders, checkGraderLabel, graderOf } from './choose.js';

const judge = (extra: Record<string, string> = {}): CheckSpec => ({ type: 'judge', value: { rubric: 'r', ...extra }, location: { file: 's.yaml', line: 9, column: 9 } });
const suiteWith = (assert: CheckSpec[], more: Partial<Suite> = {}) => ({ path: 's.yaml', cases: [{ id: 'c', prompt: 'p', options: {}, assert, location: { file: 's.yaml' } }], threads: [], ...more });

describe('graderOf', () => {
  it('takes the flags over the suite block, and --grader-model over the block\'s model', () => {
    const suite = { grader: { kind: 'chat' as const, chat_id: 'chatNode-g' } };
    expect(graderOf(suite, {})).toEqual(suite.grader);
    expect(graderOf(suite, { graderModel: 'gpt-4o-mini' })).toEqual({ kind: 'chat', chat_id: 'chatNode-g', model: 'gpt-4o-mini' });
    expect(graderOf({}, { graderUrl: 'http://127.0.0.1:1/v1', graderModel: 'm' })).toEqual({ kind: 'openai', base_url: 'http://127.0.0.1:1/v1', model: 'm' });
    expect(() => graderOf({}, { graderUrl: 'http://127.0.0.1:1/v1' })).toThrow(/--grader-url needs --grader-model/);
  });
});

describe('assertGraders', () => {
  it('refuses a model-graded check with no grader at its file:line, and a context check without knowledge', () => {
    expect(() => assertGraders(suiteWith([judge()]), undefined)).toThrow(InputError);
    try {
      assertGraders(suiteWith([judge()]), undefined);
    } catch (error) {
      expect((error as InputError).describe()).toMatch(/^s\.yaml:9:9 judge: a judge check needs a grader/);
    }
    expect(() => assertGraders(suiteWith([judge({ chat_id: 'chatNode-g' })]), undefined)).not.toThrow();
    const faithful: CheckSpec = { type: 'context-faithfulness', value: {} };
    expect(() => assertGraders(suiteWith([faithful]), { kind: 'chat', chat_id: 'g' })).toThrow(/knowledge: \[docs\/\*\.md\]/);
  });

  it('names the grader a check uses', () => {
    const run = { kind: 'openai' as const, base_url: 'http://h/v1', model: 'm' };
    expect(checkGraderLabel(judge(), run)).toBe('openai http://h/v1 m');
    expect(checkGraderLabel(judge({ model: 'big' }), run)).toBe('openai http://h/v1 big');
    expect(checkGraderLabel(judge({ chat_id: 'chatNode-x' }), run)).toBe('chat chatNode-x (service default model)');
    expect(checkGraderLabel({ type: 'contains', value: 'x' }, run)).toBeUndefined();
  });
});
