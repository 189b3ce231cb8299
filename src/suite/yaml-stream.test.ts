import { describe, expect, it } from 'vitest';
import { SuiteError } from './suite-error.js';
import { parseWholeYamlSuite, parseYamlSuite } from './yaml.js';
import { parseStreamedYamlSuite } from './yaml-stream.js';

const SHAPES: Record<string, string> = {
  cases: `name: c\nmodels: [gpt-4o, odd-model]\ncases:\n  - id: a\n    prompt: hi\n    tags: [x, y]\n    assert: [ { contains: x }, { type: judge, value: { rubric: r, model: other-m } } ]\n  - id: 2\n    prompt: there\n    models: [gpt-4o, odd-2]\n    weight: 2\n    expect_fail: known\n`,
  threads: `think_time: 1s-2s\nthreads:\n  - id: t1\n    name: one\n    tags: [y, z]\n    turns: [ { prompt: q } ]\n  - id: t2\n    think_time: 3s\n    turns:\n      - turn: 1\n        prompt: a\n        assert:\n          - icontains: b\n      - turn: 2\n        prompt: c\n        streaming: false\n`,
  multiTurnAndCases: `threads:\n  - id: t\n    turns:\n      - prompt: one\n      - prompt: two\n        assert: [ { regex: 'x+' } ]\ncases:\n  - id: c\n    prompt: p\n    tags: [q]\n`,
  vars: `defaults:\n  streaming: true\n  user: u\ntarget: { chat_id: abc }\nthresholds:\n  latency_ms: ['p(95)<2000']\ncases:\n  - id: a\n    prompt: hi\n    additional_context: ctx\n    user: me\n    method: get\n`,
  manyRuns: `cases:\n${Array.from({ length: 130 }, (_, i) => `  - id: c${i}\n    prompt: "p ${i}"\n    assert: [ { contains: "${i}" } ]\n`).join('')}`,
};

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteError);
    return (error as SuiteError).message;
  }
  throw new Error('expected an error');
}

describe('the streamed YAML reading (built as each run of items is parsed)', () => {
  for (const [name, text] of Object.entries(SHAPES)) {
    it(`builds the suite the whole-file reading builds, locations and warnings included (${name})`, () => {
      const streamed = parseStreamedYamlSuite(text, 'f.yaml');
      expect(streamed).not.toBeNull();
      expect(streamed).toEqual(parseWholeYamlSuite(text, 'f.yaml'));
    });
  }

  it('an invalid item, a duplicate id, a misnumbered turn or a bad threshold: the whole reading and its exact error', () => {
    const bad = [
      `cases:\n${Array.from({ length: 60 }, (_, i) => `  - id: c${i}\n    prompt: p\n`).join('')}  - id: late\n    promt: typo\n`,
      'cases:\n  - id: a\n    prompt: hi\nthreads:\n  - id: a\n    turns: [ { prompt: q } ]\n',
      'threads:\n  - id: t\n    turns:\n      - turn: 2\n        prompt: q\n',
      'thresholds:\n  latency_ms: ["p(95)<<2"]\ncases:\n  - id: a\n    prompt: hi\n',
      'cases:\n  - id: a\n    prompt: hi\n    weight: -1\n',
    ];
    for (const text of bad) {
      expect(parseStreamedYamlSuite(text, 'f.yaml'), text).toBeNull();
      const whole = errorOf(() => parseWholeYamlSuite(text, 'f.yaml'));
      expect(errorOf(() => parseYamlSuite(text, 'f.yaml'))).toBe(whole);
      expect(whole).toMatch(/f\.yaml:\d+/);
    }
  });

  it('keeps each item compactly: one shared frozen empty options and checks, locations of three own fields', () => {
    for (const suite of [parseYamlSuite(SHAPES.threads!, 'f.yaml'), parseWholeYamlSuite(SHAPES.threads!, 'f.yaml')]) {
      const [plain, other] = suite.threads;
      const first = plain!.turns[0]!;
      const bare = other!.turns[0]!;
      expect(Object.isFrozen(first.options) && Object.isFrozen(first.assert)).toBe(true);
      expect(bare.options).toBe(first.options);
      expect(other!.turns[1]!.assert).toBe(first.assert);
      expect(() => (first.assert as unknown[]).push(1)).toThrow(TypeError);
      // An item's own options and checks are its own objects.
      expect(other!.turns[1]!.options).toEqual({ streaming: false });
      expect(bare.assert).toHaveLength(1);
      expect(Object.keys(first.location)).toEqual(['file', 'line', 'column']);
      expect(first.location).toEqual({ file: 'f.yaml', line: 6, column: 14 });
    }
  });
});
