// Every problem of a run's suite files at once (issue 31): several files named, several included,
// each file's problems together, at most 20 listed and the rest counted.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { loadSuite, loadSuites } from './load.js';
import { describeIssues, MAX_LISTED_ISSUES, SuiteError } from './suite-error.js';
import { suiteFolder } from './test-helpers.js';

const folder = suiteFolder;

const BAD_CSV = 'id,prompt,expected\nq1,,x\nq2,,y\n';
const BAD_YAML = 'name: t\nworkspace: ws.yaml\ncases:\n  - id: a\n    prompt: hi\n    assert: [ { contians: x } ]\n';

async function failure(promise: Promise<unknown>): Promise<SuiteError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SuiteError);
  return error as SuiteError;
}

describe('every problem at once', () => {
  it('names the problems of every file a run names, each file together', async () => {
    const dir = folder({ 'a.csv': BAD_CSV, 'b.yaml': BAD_YAML });
    const error = await failure(loadSuites([join(dir, 'a.csv'), join(dir, 'b.yaml')]));
    expect(error.message.split('\n')).toEqual([
      `${join(dir, 'a.csv')}:2 prompt: must not be empty`,
      `${join(dir, 'a.csv')}:3 prompt: must not be empty`,
      expect.stringMatching(new RegExp(`^${join(dir, 'b.yaml')}:6:\\d+ cases\\[0\\]\\.assert\\[0\\]: unknown check type "contians" \\(did you mean "contains"\\?\\)`)),
    ]);
  });

  it('names the problems of every file a suite includes', async () => {
    const dir = folder({
      'suite.yaml': 'name: t\nworkspace: ws.yaml\ncases:\n  - file://one.csv\n  - file://two.csv\n  - file://none-*.csv\n',
      'one.csv': BAD_CSV,
      'two.csv': 'id,prompt,expected\nq9,,z\n',
    });
    const error = await failure(loadSuite(join(dir, 'suite.yaml')));
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.filter((line) => line.startsWith(`${join(dir, 'one.csv')}:`))).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith(`${join(dir, 'two.csv')}:2 prompt`))).toHaveLength(1);
    expect(lines.some((line) => line.includes('file://none-*.csv names no file'))).toBe(true);
  });

  it(`lists at most ${MAX_LISTED_ISSUES}, then how many more`, async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `q${i},,x`).join('\n');
    const dir = folder({ 'many.csv': `id,prompt,expected\n${rows}\n` });
    const error = await failure(loadSuite(join(dir, 'many.csv')));
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(lines.at(-2)).toBe(`${join(dir, 'many.csv')}:21 prompt: must not be empty`);
    expect(lines.at(-1)).toBe('and 5 more');
    expect(error.issues).toHaveLength(25);
    expect(describeIssues([new InputError('x', { file: 'f', line: 1 })])).toBe('f:1 x');
  });
});
