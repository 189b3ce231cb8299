// The written forms of an assertion: one-key map, promptfoo long form, CSV cell.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIMILAR_MIN, parseAssertion, parseAssertionCell, resolveCheckType } from './assertion.js';

describe('parseAssertion', () => {
  it('reads one-key maps, coercing numbers where text or a limit is expected', () => {
    expect(parseAssertion({ contains: 30 })).toEqual({ spec: { type: 'contains', value: '30' } });
    expect(parseAssertion({ 'max-ttfc-ms': '2000' })).toEqual({ spec: { type: 'max-ttfc-ms', value: 2000 } });
    expect(parseAssertion({ similar: 'golden' })).toEqual({ spec: { type: 'similar', value: { to: 'golden', min: DEFAULT_SIMILAR_MIN } } });
    expect(parseAssertion({ judge: 'polite' })).toEqual({ spec: { type: 'judge', value: { rubric: 'polite' } } });
  });

  it('reads the long form and promptfoo aliases', () => {
    expect(parseAssertion({ type: 'llm-rubric', value: 'r' })).toEqual({ spec: { type: 'judge', value: { rubric: 'r' } } });
    expect(parseAssertion({ type: 'latency', value: 500 })).toEqual({ spec: { type: 'max-latency-ms', value: 500 } });
    expect(parseAssertion({ type: 'similar', value: 'g', threshold: 0.9 })).toEqual({ spec: { type: 'similar', value: { to: 'g', min: 0.9 } } });
    expect(resolveCheckType(' Contains ')).toBe('contains');
  });

  it('says what is wrong and where inside the assertion', () => {
    expect(parseAssertion({ type: 'contains' })).toEqual({ issues: [{ path: ['value'], message: 'is required' }] });
    expect(parseAssertion({ regex: '[' })).toEqual({ issues: [{ path: ['regex'], message: expect.stringMatching(/^invalid regular expression: \/\[\/: Unterminated character class/) }] });
    expect(parseAssertion({ similar: { to: 'x', mni: 1 } })).toEqual({
      issues: [{ path: ['similar'], key: 'mni', message: expect.stringMatching(/unknown key "mni" in a similar check \(did you mean "min"\?\)/) }],
    });
    expect(parseAssertion([])).toMatchObject({ issues: [{ path: [] }] });
  });
});

describe('parseAssertionCell', () => {
  it('reads type prefixes, trimming the value', () => {
    expect(parseAssertionCell('  not-contains:   I am not sure  ')).toEqual({ spec: { type: 'not-contains', value: 'I am not sure' } });
    expect(parseAssertionCell('max-credits: 0.05')).toEqual({ spec: { type: 'max-credits', value: 0.05 } });
    expect(parseAssertionCell('llm-rubric: polite')).toEqual({ spec: { type: 'judge', value: { rubric: 'polite' } } });
  });

  it('refuses a cell that is not a check it runs, never reading it as equals', () => {
    for (const cell of ['https://example.com', 'Note: refunds', 'Exactly this answer']) {
      const parsed = parseAssertionCell(cell);
      expect(parsed).toEqual({ issues: [{ path: [], message: expect.stringContaining(`write "equals: ${cell}"`) }] });
    }
  });

  it('refuses promptfoo checks kbbench does not run, naming them and what to use', () => {
    expect(parseAssertionCell("fn:output.toLowerCase().includes('ahoy')")).toEqual({ issues: [{ path: [], message: expect.stringMatching(/^check type "fn" is not run by kbbench: kbbench runs no code/) }] });
    expect(parseAssertionCell('javascript: output.length < 5')).toEqual({ issues: [{ path: [], message: expect.stringMatching(/^check type "javascript" is not run/) }] });
    expect(parseAssertionCell('webhook:http://x')).toEqual({ issues: [{ path: [], message: expect.stringMatching(/^check type "webhook" is not run/) }] });
    expect(parseAssertionCell('is-xml')).toEqual({ issues: [{ path: [], message: expect.stringMatching(/^check type "is-xml" is not run/) }] });
  });

  it('reads promptfoo cell forms: a valueless type alone, limits as cost and latency, levenshtein with its threshold', () => {
    expect(parseAssertionCell('is-json')).toEqual({ spec: { type: 'is-json', value: undefined } });
    expect(parseAssertionCell('not-contains-json')).toEqual({ spec: { type: 'not-contains-json', value: undefined } });
    expect(parseAssertionCell('cost: 0.01')).toEqual({ spec: { type: 'max-credits', value: 0.01 } });
    expect(parseAssertionCell('latency:5000')).toEqual({ spec: { type: 'max-latency-ms', value: 5000 } });
    expect(parseAssertionCell('levenshtein(5):Ahoy')).toEqual({ spec: { type: 'levenshtein', value: { to: 'Ahoy', max: 5 } } });
    expect(parseAssertionCell('levenshtein: Ahoy')).toEqual({ spec: { type: 'levenshtein', value: { to: 'Ahoy', max: 5 } } });
    expect(parseAssertionCell('contains:30 days')).toEqual({ spec: { type: 'contains', value: '30 days' } });
    expect(parseAssertionCell('grade: Is polite')).toEqual({ spec: { type: 'judge', value: { rubric: 'Is polite' } } });
  });

  it('takes a similarity minimum in parentheses, and only for similar', () => {
    expect(parseAssertionCell('similar(0.75): golden')).toEqual({ spec: { type: 'similar', value: { to: 'golden', min: 0.75 } } });
    expect(parseAssertionCell('similar(abc): golden')).toEqual({ issues: [{ path: [], message: 'similar: must be a number between 0 and 1' }] });
    expect(parseAssertionCell('contains(2): x')).toEqual({ issues: [{ path: [], message: expect.stringMatching(/^contains: threshold applies to similar, levenshtein, cost/) }] });
    expect(parseAssertionCell('contains:')).toEqual({ issues: [{ path: [], message: 'contains: must not be empty' }] });
  });
});

describe('a CSV cell with a type prefix', () => {
  it('reads promptfoo names of negations and lists', () => {
    expect(parseAssertionCell('not-icontains: don\'t know')).toEqual({ spec: { type: 'not-icontains', value: "don't know" } });
    expect(parseAssertionCell('contains-any: 30 days, thirty days')).toEqual({ spec: { type: 'contains-any', value: ['30 days', 'thirty days'] } });
    expect(parseAssertionCell('icontains-all: pro,team')).toEqual({ spec: { type: 'icontains-all', value: ['pro', 'team'] } });
    expect(parseAssertionCell('not-regex: \\b45\\b')).toEqual({ spec: { type: 'not-regex', value: '\\b45\\b' } });
  });

  it('refuses a prefix a typo away from a check type, with a did-you-mean', () => {
    const parsed = parseAssertionCell('contans: per agent');
    expect(parsed).toEqual({ issues: [{ path: [], message: expect.stringMatching(/^unknown check type "contans" \(did you mean "contains"\?\)/) }] });
    expect(JSON.stringify(parseAssertionCell('not-icontain: x'))).toMatch(/did you mean \\"not-icontains\\"/);
  });

  it('refuses an ordinary label, and equals: always escapes', () => {
    expect('issues' in parseAssertionCell('Answer: yes')).toBe(true);
    expect('issues' in parseAssertionCell('Note: see the FAQ')).toBe(true);
    expect(parseAssertionCell('equals: contans: per agent')).toEqual({ spec: { type: 'equals', value: 'contans: per agent' } });
  });
});

describe('list values in YAML', () => {
  it('takes a list or a comma-separated string', () => {
    expect(parseAssertion({ 'contains-all': ['a', 'b'] })).toEqual({ spec: { type: 'contains-all', value: ['a', 'b'] } });
    expect(parseAssertion({ 'contains-any': 'a, b' })).toEqual({ spec: { type: 'contains-any', value: ['a', 'b'] } });
    expect('issues' in parseAssertion({ 'contains-any': [] })).toBe(true);
  });
});

describe("promptfoo's model-graded checks", () => {
  it('reads factuality and context-recall (a reference), answer-relevance and context-faithfulness (nothing, or grader keys), and votes', () => {
    expect(parseAssertion({ factuality: 'You have 72 hours.' })).toEqual({ spec: { type: 'factuality', value: { reference: 'You have 72 hours.' } } });
    expect(parseAssertion({ 'answer-relevance': true })).toEqual({ spec: { type: 'answer-relevance', value: {} } });
    expect(parseAssertion({ 'context-faithfulness': { votes: 3 } })).toEqual({ spec: { type: 'context-faithfulness', value: { votes: 3 } } });
    expect(parseAssertion({ 'llm-rubric': { rubric: 'r', votes: 3, chat_id: 'g' } })).toEqual({ spec: { type: 'judge', value: { rubric: 'r', votes: 3, chat_id: 'g' } } });
    expect(parseAssertion({ 'llm-rubric': { rubric: 'r', votes: 2 } })).toMatchObject({ issues: [{ message: expect.stringMatching(/odd/) }] });
    expect(parseAssertion({ 'context-recall': '' })).toMatchObject({ issues: expect.any(Array) });
    expect(parseAssertionCell('answer-relevance:')).toEqual({ spec: { type: 'answer-relevance', value: {} } });
  });
});
