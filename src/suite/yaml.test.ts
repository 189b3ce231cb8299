// YAML suites written inline: shapes accepted, shapes refused, and where each problem is reported.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSuite } from './load.js';
import { suiteIssuesOf } from './test-helpers.js';

const yaml = (text: string, file = 'dir/inline.yaml') => parseSuite(Buffer.from(text), file);

const issuesOf = (text: string): string[] => suiteIssuesOf(() => yaml(text));

describe('YAML suites', () => {
  it('fills defaults for a minimal suite', () => {
    const suite = yaml('cases:\n  - id: a\n    prompt: Hi\n');
    expect(suite).toMatchObject({ name: 'inline', target: {}, models: [], defaults: {}, threads: [], thresholds: {}, warnings: [] });
    expect(suite.workspace).toBeUndefined();
    expect(suite.cases.at(0)).toEqual({ id: 'a', prompt: 'Hi', options: {}, assert: [], location: { file: 'dir/inline.yaml', line: 2, column: 5 } });
  });

  it('accepts a BOM, empty values as absent, numeric ids and a single model as a string', () => {
    const suite = yaml('\uFEFFmodels: gpt-4o\ndefaults:\ncases:\n  - id: 7\n    prompt: Hi\n    assert:\nthreads:\n');
    expect(suite.models).toEqual(['gpt-4o']);
    expect(suite.cases.at(0)).toMatchObject({ id: '7', assert: [] });
  });

  it('resolves workspace against the suite file folder', () => {
    const suite = yaml('workspace: ws/demo.yaml\ncases: [{ id: a, prompt: Hi }]\n', 'suites/x.yaml');
    expect(suite.workspace).toBe(resolve('suites/ws/demo.yaml'));
  });

  it('locates assertions and turns for later messages', () => {
    const suite = yaml('threads:\n  - id: t\n    turns:\n      - prompt: A\n      - prompt: B\n        assert:\n          - contains: x\n');
    const turn = suite.threads[0]?.turns[1];
    expect(turn?.location).toMatchObject({ line: 5, column: 9 });
    expect(turn?.assert[0]?.location).toMatchObject({ line: 7, column: 13 });
  });

  it('accepts turns that state their numbers in order', () => {
    const suite = yaml('threads:\n  - id: t\n    turns:\n      - { turn: 1, prompt: A }\n      - { turn: 2, prompt: B }\n');
    expect(suite.threads[0]?.turns.map((t) => t.turn)).toEqual([1, 2]);
  });

  it('refuses a file that is not a map, or has nothing to ask', () => {
    expect(issuesOf('- a\n- b\n')).toEqual([expect.stringMatching(/^dir\/inline\.yaml:1:1 a suite file is a YAML map/)]);
    expect(issuesOf('')).toEqual([expect.stringMatching(/^dir\/inline\.yaml:1:1 a suite file is a YAML map/)]);
    expect(issuesOf('name: x\ncases: []\n')).toEqual([expect.stringMatching(/^dir\/inline\.yaml:1:1 the suite has no cases and no threads/)]);
  });

  it('counts lines the same with CRLF line ends', () => {
    expect(issuesOf('cases:\r\n  - id: a\r\n    prompt: ""\r\n')).toEqual(['dir/inline.yaml:3:13 cases[0].prompt: must not be empty']);
  });

  it('refuses duplicate keys and several documents as syntax errors with their line', () => {
    expect(issuesOf('cases:\n  - id: a\n    prompt: A\n    prompt: B\n')).toEqual([expect.stringMatching(/^dir\/inline\.yaml:4:5 YAML syntax: Map keys must be unique/)]);
    expect(issuesOf('cases: []\n---\nthreads: []\n')).toEqual([expect.stringMatching(/^dir\/inline\.yaml:2:1 YAML syntax: Source contains multiple documents/)]);
  });

  it('reports unknown keys at the key, in a case, a turn, a target and an assertion', () => {
    const text = [
      'target: { board: b }',
      'cases:',
      '  - id: a',
      '    prompt: A',
      '    streem: true',
      '    assert:',
      '      - { type: contains, value: x, weigth: 2 }',
      'threads:',
      '  - id: t',
      '    turns:',
      '      - prompt: B',
      '        asserts: []',
    ].join('\n');
    expect(issuesOf(text)).toEqual([
      expect.stringMatching(/^dir\/inline\.yaml:1:11 target\.board: unknown key "board" in target \(did you mean "board_id"\?\)/),
      expect.stringMatching(/:5:5 cases\[0\]\.streem: unknown key "streem" in a case \(did you mean "stream/),
      expect.stringMatching(/:7:37 cases\[0\]\.assert\[0\]\.weigth: unknown key "weigth" in an assertion/),
      expect.stringMatching(/:12:9 threads\[0\]\.turns\[0\]\.asserts: unknown key "asserts" in a turn \(did you mean "assert"\?\)/),
    ]);
  });

  it('refuses missing ids, empty threads, bad types of lists and models', () => {
    const text = ['models: [gpt-4o, gpt-4o]', 'cases:', '  - prompt: A', 'threads:', '  - id: t', '    turns: []', '  - id: u', '    turns: nope'].join('\n');
    expect(issuesOf(text)).toEqual([
      expect.stringMatching(/:1:18 models\[1\]: model "gpt-4o" is listed twice/),
      expect.stringMatching(/:3:5 cases\[0\]\.id: is required/),
      expect.stringMatching(/:6:12 threads\[0\]\.turns: a thread needs at least one turn/),
      expect.stringMatching(/:8:12 threads\[1\]\.turns: must be a list, found the text "nope"/),
    ]);
  });

  it('refuses assertions in unreadable shapes', () => {
    const text = [
      'cases:',
      '  - id: a',
      '    prompt: A',
      '    assert:',
      '      - contains',
      '      - { contains: x, regex: y }',
      '      - { contains: "" }',
      '      - { similar: { to: x, min: 2 } }',
      '      - { judge: { model: gpt-4o } }',
      '      - { type: nope, value: x }',
      '      - { type: contains, value: x, threshold: 0.5 }',
      '      - { max-credits: -1 }',
    ].join('\n');
    expect(issuesOf(text)).toEqual([
      expect.stringMatching(/:5:9 cases\[0\]\.assert\[0\]: an assertion is a one-key map/),
      expect.stringMatching(/:6:9 cases\[0\]\.assert\[1\]: an assertion has exactly one key, its check type; found contains, regex/),
      expect.stringMatching(/:7:21 cases\[0\]\.assert\[2\]\.contains: must not be empty/),
      expect.stringMatching(/:8:34 cases\[0\]\.assert\[3\]\.similar\.min: must be between 0 and 1/),
      expect.stringMatching(/:9:18 cases\[0\]\.assert\[4\]\.judge\.rubric: is required/),
      expect.stringMatching(/:10:17 cases\[0\]\.assert\[5\]\.type: unknown check type "nope"/),
      expect.stringMatching(/:11:48 cases\[0\]\.assert\[6\]\.threshold: threshold applies to similar, levenshtein, cost/),
      expect.stringMatching(/:12:24 cases\[0\]\.assert\[7\]\.max-credits: must be a number of credits ≥ 0/),
    ]);
  });

  it('warns about unknown models in cases, threads and judges', () => {
    const text = [
      'cases:',
      '  - id: a',
      '    prompt: A',
      '    models: [gpt-9]',
      '    assert: [ { judge: { rubric: r, model: judge-9 } } ]',
      'threads:',
      '  - id: t',
      '    models: [o9]',
      '    turns: [ { prompt: B } ]',
    ].join('\n');
    expect(yaml(text).warnings).toEqual([
      expect.stringMatching(/:4:14 cases\[0\]\.models\[0\]: unknown model "gpt-9"/),
      expect.stringMatching(/:5:15 cases\[0\]\.assert\[0\]: unknown model "judge-9"/),
      expect.stringMatching(/:8:14 threads\[0\]\.models\[0\]: unknown model "o9"/),
    ]);
  });
});
