// Fixture suites: every valid example loads; every invalid one names its file, line and field.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { loadSuite } from './load.js';
import { SuiteError } from './suite-error.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/suites/', import.meta.url));
const fixture = (name: string): string => `${FIXTURES}${name}`;

async function problems(name: string): Promise<SuiteError> {
  const error = await loadSuite(fixture(name)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SuiteError);
  return error as SuiteError;
}

describe('loadSuite: valid suites', () => {
  it('reads the CONTRACT example with every part', async () => {
    const suite = await loadSuite(fixture('valid/support-faq.yaml'));
    expect(suite.name).toBe('support-faq');
    expect(suite.target).toEqual({ board_id: 'winter-frost-CJk4G', chat_id: 'chatNode-patient-star-4uIJt' });
    expect(suite.models).toEqual(['claude-sonnet-4-6', 'gpt-4o-mini']);
    expect(suite.defaults).toEqual({ streaming: true, method: 'post', plaintext: false });
    expect([...suite.cases].map((c) => c.id)).toEqual(['refund-window', 'plans']);
    expect(suite.cases.at(0)?.options).toEqual({ additional_context: 'The customer bought a Pro plan.' });
    expect(suite.cases.at(0)?.assert.map((a) => [a.type, a.value])).toEqual([
      ['contains', '30 days'],
      ['not-contains', "I don't know"],
      ['regex', '\\b30\\b'],
    ]);
    expect(suite.cases.at(0)?.assert[2]?.location).toMatchObject({ line: 14, column: 9 });
    expect(suite.cases.at(1)?.models).toEqual(['gpt-4o-mini']);
    expect(suite.threads[0]).toMatchObject({ id: 'onboarding', name: 'Onboarding check', location: { line: 25 } });
    expect(suite.threads[0]?.turns.map((t) => [t.turn, t.options])).toEqual([
      [1, {}],
      [2, { save_history: true, user: 'tester' }],
    ]);
    expect(suite.thresholds).toEqual({
      ttfc_ms: ['p(95)<2000'],
      latency_ms: ['p(99)<8000'],
      pass_rate: ['rate>=0.95'],
      credits_used: ['sum<=5'],
      'ttfc_ms{model:gpt-4o-mini}': ['p(90) < 1500', 'max<4000'],
    });
    expect(suite.workspace).toBe(fixture('workspaces/demo.yaml'));
    expect(suite.warnings).toEqual([]);
  });

  it('hashes the exact file bytes and keeps an absolute path', async () => {
    const suite = await loadSuite(fixture('valid/support-faq.yaml'));
    const bytes = readFileSync(fixture('valid/support-faq.yaml'));
    expect(suite.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(suite.path).toBe(fixture('valid/support-faq.yaml'));
  });

  it('names a suite after its file when it has no name', async () => {
    expect((await loadSuite(fixture('valid/shuffled-thread.csv'))).name).toBe('shuffled-thread');
  });

  it('warns, with file and line, about a model it does not know', async () => {
    const suite = await loadSuite(fixture('valid/unknown-model.yaml'));
    expect(suite.models).toEqual(['gpt-4o', 'gpt-7-turbo']);
    expect(suite.warnings).toHaveLength(1);
    expect(suite.warnings[0]).toMatch(/unknown-model\.yaml:1:18 models\[1\]: unknown model "gpt-7-turbo"/);
  });
});

describe('loadSuite: invalid suites', () => {
  const cases: [string, RegExp][] = [
    ['invalid/missing-prompt.yaml', /missing-prompt\.yaml:5:5 cases\[1\]\.prompt: is required/],
    ['invalid/empty-prompt.yaml', /empty-prompt\.yaml:5:13 cases\[1\]\.prompt: must not be empty/],
    ['invalid/duplicate-id.yaml', /duplicate-id\.yaml:7:9 threads\[0\]\.id: duplicate id "refund" \(first used by cases\[0\] on line 2\)/],
    ['invalid/unknown-check.yaml', /unknown-check\.yaml:6:9 cases\[0\]\.assert\[1\]: unknown check type "contians" \(did you mean "contains"\?\); check types: contains, icontains/],
    ['invalid/bad-regex.yaml', /bad-regex\.yaml:5:16 cases\[0\]\.assert\[0\]\.regex: invalid regular expression: \/\(unclosed\/: Unterminated group/],
    ['invalid/unknown-top-key.yaml', /unknown-top-key\.yaml:2:1 case: unknown key "case" in the suite \(did you mean "cases"\?\)/],
    ['invalid/turn-skip.yaml', /turn-skip\.yaml:6:15 threads\[0\]\.turns\[1\]\.turn: turn 3 is turn 2 of thread "onboarding"/],
    ['invalid/syntax-error.yaml', /syntax-error\.yaml:\d+:\d+ YAML syntax: /],
    ['invalid/turn-gap.csv', /turn-gap\.csv:3 turn: thread "onboarding" skips turn 2/],
    ['invalid/turn-repeat.csv', /turn-repeat\.csv:4 turn: turn 2 of thread "onboarding" is repeated \(also on line 3\)/],
    ['invalid/missing-prompt.csv', /missing-prompt\.csv:3 prompt: must not be empty/],
    ['invalid/duplicate-id.csv', /duplicate-id\.csv:3 id: duplicate id "c1" \(first on line 2\)/],
    ['invalid/unknown-column.csv', /unknown-column\.csv:1 promt: unknown column "promt" \(did you mean "prompt"\?\)/],
  ];
  it.each(cases)('%s names file, line and field', async (name, expected) => {
    const error = await problems(name);
    expect(error.code).toBe('E_INPUT');
    expect(error.message).toMatch(expected);
    expect(error.describe()).toBe(error.message);
  });

  it('reports every problem of a file, one per line, in file order', async () => {
    const error = await problems('invalid/many-problems.yaml');
    expect(error.issues.map((issue) => [issue.location.line, issue.location.field])).toEqual([
      [4, 'cases[0].prompt'],
      [5, 'cases[1].id'],
      [7, 'cases[1].asert'],
      [11, 'cases[2].assert[0].max-ttfc-ms'],
    ]);
    expect(error.message.split('\n')).toHaveLength(4);
    expect(error.location).toEqual(error.issues[0]?.location);
  });

  it('rejects option values of the wrong type, saying what was found', async () => {
    const error = await problems('invalid/bad-option-type.yaml');
    expect(error.message).toContain('bad-option-type.yaml:2:14 defaults.streaming: must be true or false (without quotes), found the text "yes"');
    expect(error.message).toContain('bad-option-type.yaml:6:13 cases[0].method: must be post or get, found the text "put"');
    expect(error.message).toContain('bad-option-type.yaml:7:16 cases[0].plaintext: must be true or false (without quotes), found the number 1');
  });

  it('rejects malformed thresholds at their line, before anything runs', async () => {
    const error = await problems('invalid/bad-threshold.yaml');
    expect(error.issues.map((i) => i.describe())).toEqual([
      expect.stringMatching(/:5:27 thresholds\.ttfc_ms\[1\]: threshold "ttfc_ms: p\(101\)<5": percentile p\(101\) is out of range/),
      expect.stringMatching(/:6:3 thresholds\.latency: threshold "latency": unknown metric "latency"/),
      expect.stringMatching(/:7:15 thresholds\.pass_rate\[0\]: threshold "pass_rate: avg>0\.9": aggregation "avg" is not valid for pass_rate \(valid: rate\)/),
    ]);
  });

  it('rejects bad CSV booleans and methods by row line and column name', async () => {
    const error = await problems('invalid/bad-boolean.csv');
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(/bad-boolean\.csv:3 streaming: must be true\/false, yes\/no or 1\/0, found "maybe"$/),
      expect.stringMatching(/bad-boolean\.csv:4 method: must be post or get, found "put"$/),
    ]);
  });

  it('rejects bad CSV assertion cells by column', async () => {
    const error = await problems('invalid/bad-assertion.csv');
    expect(error.message).toMatch(/bad-assertion\.csv:2:7 __expected: regex: invalid regular expression/);
    expect(error.message).toMatch(/bad-assertion\.csv:2:24 __expected1: max-latency-ms: must be a number of milliseconds ≥ 0/);
  });

  it('names a thread id that is also a case id', async () => {
    const error = await problems('invalid/duplicate-id.csv');
    expect(error.message).toMatch(/duplicate-id\.csv:5 thread: thread id "onboarding" is also the id of the case on line 4/);
  });

  it('refuses other extensions and missing files with an InputError naming the file', async () => {
    await expect(loadSuite(fixture('invalid/not-a-suite.txt'))).rejects.toThrow(/must end in \.yaml, \.yml or \.csv/);
    const missing = await loadSuite(fixture('invalid/no-such-file.yaml')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(InputError);
    expect((missing as InputError).describe()).toMatch(/no-such-file\.yaml suite file not found/);
  });
});
