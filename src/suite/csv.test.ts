// CSV suites: ordinary CSV (BOM, CRLF, quoted commas and newlines), threads, promptfoo columns.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSuite } from './load.js';
import { suiteIssuesOf } from './test-helpers.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/suites/', import.meta.url));
const csv = (text: string, file = 'inline.csv') => parseSuite(Buffer.from(text), file);

const issuesOf = (text: string): string[] => suiteIssuesOf(() => csv(text));

describe('CSV suites', () => {
  it('reads a file with a BOM, CRLF line ends, quoted commas, quotes and newlines', () => {
    const bytes = readFileSync(`${FIXTURES}valid/bom-crlf.csv`);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the fixture really has them
    expect(bytes.includes('\r\n')).toBe(true);
    const suite = parseSuite(bytes, 'bom-crlf.csv');
    expect([...suite.cases].map((c) => c.id)).toEqual(['refund', 'quote']);
    expect(suite.cases.at(0)).toMatchObject({
      prompt: 'How long, in days, do I have\r\nto ask for a refund?',
      models: ['gpt-4o'],
      options: { streaming: true },
      location: { line: 2 },
    });
    expect(suite.cases.at(0)?.assert.map((a) => [a.type, a.value])).toEqual([
      ['contains', '30 days'],
      ['regex', '\\b30\\b'],
    ]);
    expect(suite.cases.at(1)).toMatchObject({ prompt: 'He said "hi", then left', location: { line: 4 } });
  });

  it('gives the starting file line of a row after multi-line CRLF cells', () => {
    const text = 'id,prompt\r\na,"one\r\ntwo\r\nthree"\r\n\r\nb,\r\n';
    expect(issuesOf(text)).toEqual(['inline.csv:6 prompt: must not be empty']);
  });

  it('orders a thread by turn whatever order its rows come in', () => {
    const suite = parseSuite(readFileSync(`${FIXTURES}valid/shuffled-thread.csv`), 'shuffled-thread.csv');
    expect([...suite.cases].map((c) => c.id)).toEqual(['hello']);
    const [onboarding, other] = suite.threads;
    expect(onboarding?.turns.map((t) => [t.turn, t.prompt, t.location.line])).toEqual([
      [1, 'Which plans do you offer?', 4],
      [2, 'How much is the second one?', 5],
      [3, 'And the third?', 2],
    ]);
    expect(onboarding?.models).toEqual(['gpt-4o']);
    expect(onboarding?.location.line).toBe(2);
    // Without turn numbers the file order is the turn order.
    expect(other?.turns.map((t) => t.prompt)).toEqual(['First question', 'Second question']);
  });

  it('reads promptfoo __expected columns; equals only where a cell says it', () => {
    const suite = parseSuite(readFileSync(`${FIXTURES}valid/promptfoo-expected.csv`), 'promptfoo.csv');
    const checks = [...suite.cases].map((c) => c.assert.map((a) => [a.type, a.value]));
    expect(checks).toEqual([
      [
        ['contains', '30 days'],
        ['icontains', 'PRO'],
        ['not-contains', "I don't know"],
        ['max-latency-ms', 5000],
      ],
      [
        ['equals', 'Exactly this answer'],
        ['regex', '^Exactly'],
        ['starts-with', 'Exactly'],
      ],
      [
        ['similar', { to: 'Refunds within 30 days', min: 0.8 }],
        ['judge', { rubric: 'Mentions refunds' }],
        ['equals', 'x: y'],
      ],
      [],
    ]);
    expect(suite.cases.at(0)?.assert[0]?.location).toEqual({ file: 'promptfoo.csv', line: 2 });
  });

  it('reads request option columns and accepts the usual boolean spellings', () => {
    const text = 'ID,Prompt,method,streaming,plaintext,include_usage,save_history,user,source,additional_context\n' + 'c1,Hi,GET,Yes,0,TRUE,no,ana,web,Pro plan\n';
    expect(csv(text).cases.at(0)?.options).toEqual({
      method: 'get',
      streaming: true,
      plaintext: false,
      include_usage: true,
      save_history: false,
      user: 'ana',
      source: 'web',
      additional_context: 'Pro plan',
    });
  });

  it('splits a comma-separated model cell and warns about unknown models', () => {
    const suite = csv('id,prompt,model\nc1,Hi,"gpt-4o, gpt-9"\n');
    expect(suite.cases.at(0)?.models).toEqual(['gpt-4o', 'gpt-9']);
    expect(suite.warnings).toEqual([expect.stringMatching(/^inline\.csv:2 model: unknown model "gpt-9"/)]);
    expect(suite).toMatchObject({ models: [], thresholds: {}, target: {}, defaults: {} });
  });

  it('rejects mixed numbering, turns without a thread, and disagreeing thread models', () => {
    const text = ['id,prompt,thread,turn,model', 'a,A,t,1,gpt-4o', 'b,B,t,,gpt-4o-mini', 'c,C,,2,'].join('\n');
    expect(issuesOf(text)).toEqual([
      'inline.csv:3 turn: turn is empty, but other rows of thread "t" number their turns',
      'inline.csv:3 model: model "gpt-4o-mini" differs from "gpt-4o" on line 2; all rows of thread "t" run on the same models',
      'inline.csv:4 turn: turn is set but thread is empty; a turn belongs to a thread',
    ]);
  });

  it('does not report false gaps in a thread whose row could not be read', () => {
    const text = ['id,prompt,thread,turn,streaming', 'a,A,t,1,', 'b,B,t,2,maybe', 'c,C,t,x,'].join('\n');
    expect(issuesOf(text)).toEqual([
      'inline.csv:3 streaming: must be true/false, yes/no or 1/0, found "maybe"',
      'inline.csv:4 turn: must be a whole number (1, 2, 3…)',
    ]);
  });

  it('rejects a row with more fields than the header, an empty file, a header without rows', () => {
    expect(issuesOf('id,prompt\nc1,Hello, world\n')).toEqual([expect.stringMatching(/^inline\.csv:2 row: the row has 3 fields but the header has 2/)]);
    expect(csv('id,prompt\nc1,Hi,,\n').cases).toHaveLength(1);
    expect(issuesOf('')).toEqual([expect.stringMatching(/^inline\.csv:1 the CSV file is empty/)]);
    expect(issuesOf('id,prompt\n')).toEqual(['inline.csv:1 the CSV file has a header but no rows']);
  });

  it('rejects a header missing id, a repeated column; ignores note columns', () => {
    expect(issuesOf('prompt,prompt\nHi,Hi\n')).toEqual([
      'inline.csv:1 prompt: column "prompt" appears twice in the header',
      'inline.csv:1 header: the header has no "id" column (required)',
    ]);
    expect(csv('id,prompt,notes,__metadata:team\nc1,Hi,whatever,x\n').cases).toHaveLength(1);
  });

  it('reports a broken quote with its line', () => {
    // The line and column where the quote opened, not the line where the file ends.
    expect(issuesOf('id,prompt\nc1,"unclosed\nc2,Hi\nc3,Ho\n')).toEqual([expect.stringMatching(/^inline\.csv:2:4 CSV syntax: this quote opens a field that is never closed/)]);
  });

  it('ignores unnamed header cells a spreadsheet left (trailing commas), unless a row puts a value under one', () => {
    expect([...csv('id,prompt,,\nc1,Hi,,\n').cases].map((c) => c.id)).toEqual(['c1']);
    expect(issuesOf('id,prompt,\nc1,Hi,oops\n')).toEqual(['inline.csv:2 column 3: column 3 has a value but no name in the header; name the column or empty it']);
  });

  it('says when a header looks separated by something other than commas', () => {
    expect(issuesOf('id;prompt\nc1;Hi\n')).toContain('inline.csv:1 header: the header has no "id" column (required); the header looks ";"-separated: save the file as comma-separated CSV');
  });

  it('reads a thread of 30,000 turns, in turn order', () => {
    // Its time (linear: copying the thread's list per row took ~8 s) is bench/timing-claims.mjs's.
    const rows = Array.from({ length: 30_000 }, (_, i) => `t${i + 1},Question ${i + 1}?,long,${30_000 - i}`);
    const suite = csv(['id,prompt,thread,turn', ...rows].join('\n'));
    expect(suite.threads[0]?.turns).toHaveLength(30_000);
    expect(suite.threads[0]?.turns[0]?.prompt).toBe('Question 30000?');
  });

  it('rejects ids with the item-id separator', () => {
    expect(issuesOf('id,prompt\na|b,Hi\n')).toEqual([expect.stringMatching(/^inline\.csv:2 id: must not contain '\|'/)]);
  });
});
