// A CSV with promptfoo's columns run alone: variables into the prompt column, __metadata as tags,
// __threshold, __prefix/__suffix; kbbench's own CSVs keep their reader.
import { describe, expect, it } from 'vitest';
import { parseSuite } from '../load.js';
import { suiteIssuesOf } from '../test-helpers.js';
import { isPromptfooCsv } from './csv-suite.js';

const csv = (lines: string[]): Buffer => Buffer.from(`${lines.join('\n')}\n`);

const problemsOf = (bytes: Buffer): string[] => suiteIssuesOf(() => parseSuite(bytes, 'pf.csv'));

describe('a promptfoo-style CSV run alone', () => {
  it('renders variables into the prompt and the checks, reads __ columns, derives ids when none', () => {
    const suite = parseSuite(
      csv([
        'prompt,topic,__expected,__expected2,__metadata:category,__threshold,__prefix,__suffix,__description',
        '"Tell me about {{topic}}",physics,contains: {{topic}},"llm-rubric: About {{ topic }}",science,0.5,"Q: ","?",Physics basics',
      ]),
      'pf.csv',
    );
    expect(suite.cases.at(0)).toMatchObject({
      id: 't1-physics-basics.p1',
      prompt: 'Q: Tell me about physics?',
      tags: ['category=science'],
      score_threshold: 0.5,
      description: 'Physics basics',
      assert: [{ type: 'contains', value: 'physics' }, { type: 'judge', value: { rubric: 'About physics' } }],
    });
    expect(suite.tags).toEqual(['category=science']);
  });

  it('keeps a written id, and refuses an unused column as an unknown one (a typo is not a variable)', () => {
    expect(parseSuite(csv(['id,prompt,__metadata:area', 'a1,Hello,billing']), 'pf.csv').cases.at(0)).toMatchObject({ id: 'a1', tags: ['area=billing'] });
    expect(problemsOf(csv(['id,prompt,topik,__metadata:area', 'a1,About {{topic}},x,billing']))).toEqual([
      expect.stringMatching(/^pf\.csv:1 topik: unknown column "topik": a column is a variable only when a \{\{topik\}\} uses it/),
      expect.stringMatching(/pf\.csv:2 prompt: \{\{ topic \}\} names no variable; variables: topik/),
    ]);
  });

  it('says where the prompts are when a promptfoo tests file has none', () => {
    expect(problemsOf(csv(['body,__expected', 'Hello,contains: hi']))).toEqual([expect.stringMatching(/pf\.csv:1 header: this is a promptfoo tests file .* run that config/)]);
  });

  it('leaves kbbench CSVs to their own reader', () => {
    expect(isPromptfooCsv(csv(['id,prompt,expected', 'a,A,x']))).toBe(false);
    expect(isPromptfooCsv(csv(['id,prompt,thread,turn,__metadata:x', 'a,A,t,1,y']))).toBe(false);
    expect(isPromptfooCsv(csv(['id,prompt,language', 'a,In {{language}},French']))).toBe(true);
  });
});
