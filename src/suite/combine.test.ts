import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputError } from '../domain/errors.js';
import { SuiteError } from './suite-error.js';
import { loadSuite, loadSuites } from './load.js';
import { suiteFolder } from './test-helpers.js';

const project = suiteFolder;

const QUESTIONS = 'id,prompt,expected\nq1,What is the deposit?,€300\nq2,When do you open?,9:00\n';
const THREADS = 'threads:\n  - id: t1\n    turns:\n      - prompt: Hello\n      - prompt: And then?\n';

describe('several files as one suite', () => {
  it('puts included CSV cases where the file:// entry is, and globbed YAML threads', async () => {
    const dir = project({
      'suite.yaml': 'name: bikes\nmodels: [gpt-4o-mini]\ncases:\n  - id: first\n    prompt: Hi\n  - file://questions.csv\n  - id: last\n    prompt: Bye\nthreads:\n  - file://thread*.yaml\n',
      'questions.csv': QUESTIONS,
      'threads.yaml': THREADS,
    });
    const suite = await loadSuite(join(dir, 'suite.yaml'));
    expect([...suite.cases].map((c) => c.id)).toEqual(['first', 'q1', 'q2', 'last']);
    expect(suite.threads.map((t) => t.id)).toEqual(['t1']);
    expect(suite.name).toBe('bikes');
    expect(suite.models).toEqual(['gpt-4o-mini']);
    expect(suite.files).toEqual([join(dir, 'suite.yaml'), join(dir, 'questions.csv'), join(dir, 'threads.yaml')]);
    expect([...suite.cases][1]!.location).toMatchObject({ file: join(dir, 'questions.csv'), line: 2 });
  });

  it('refuses an include that names no file, with its line', async () => {
    const dir = project({ 'suite.yaml': 'cases:\n  - file://nothing-*.csv\n' });
    const error = (await loadSuite(join(dir, 'suite.yaml')).catch((e: unknown) => e)) as InputError;
    expect(error.describe()).toMatch(/suite\.yaml:2:\d+ file:\/\/nothing-\*\.csv names no file/);
  });

  it('runs a CSV and a YAML file as one suite named after the first', async () => {
    const dir = project({ 'questions.csv': QUESTIONS, 'threads.yaml': `models: [gpt-4o]\n${THREADS}` });
    const suite = await loadSuites([join(dir, 'questions.csv'), join(dir, 'threads.yaml')]);
    expect(suite.name).toBe('questions');
    expect(suite.cases.length).toBe(2);
    expect(suite.threads.length).toBe(1);
    expect(suite.models).toEqual(['gpt-4o']);
  });

  it('names both places of an id used in two files', async () => {
    const dir = project({ 'a.csv': QUESTIONS, 'b.csv': 'id,prompt\nq2,Again?\n' });
    const error = await loadSuites([join(dir, 'a.csv'), join(dir, 'b.csv')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SuiteError);
    expect((error as Error).message).toContain(`${join(dir, 'b.csv')}:2`);
    expect((error as Error).message).toContain(`duplicate id "q2": also at ${join(dir, 'a.csv')}:3`);
  });

  it('refuses two files that set one setting differently', async () => {
    const dir = project({ 'a.yaml': 'models: [gpt-4o]\ncases: [ { id: a, prompt: x } ]\n', 'b.yaml': 'models: [gpt-4o-mini]\ncases: [ { id: b, prompt: y } ]\n' });
    await expect(loadSuites([join(dir, 'a.yaml'), join(dir, 'b.yaml')])).rejects.toThrow(/models is set differently/);
  });
});
