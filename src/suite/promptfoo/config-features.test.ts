// promptfoo config features beyond its examples: defaultTest, list vars, weights and thresholds,
// conversations, providers that cannot be mapped, and promptfoo's words in a kbbench suite.
import { describe, expect, it } from 'vitest';
import { parseSuite } from '../load.js';
import { suiteIssuesOf } from '../test-helpers.js';
import { modelOfProvider } from './providers.js';

const read = (lines: string[]) => parseSuite(Buffer.from(lines.join('\n')), 'pf.yaml');

const problemsOf = (lines: string[]): string[] => suiteIssuesOf(() => read(lines));

describe('promptfoo config features', () => {
  it('applies defaultTest (vars, assert, options) to every test, and multiplies list vars', () => {
    const suite = read([
      "prompts: ['{{greeting}}, {{name}}']",
      'defaultTest:',
      '  vars: { greeting: Hello }',
      '  assert: [ { type: not-contains, value: sorry } ]',
      '  options: { suffix: "!" }',
      'tests:',
      '  - vars: { name: [Ann, Bob] }',
      '    assert: [ { type: icontains, value: "{{name}}", weight: 2, metric: naming } ]',
    ]);
    expect([...suite.cases].map((c) => [c.id, c.prompt, c.assert.map((a) => [a.type, a.value, a.weight])])).toEqual([
      ['t1.v1.p1', 'Hello, Ann!', [['not-contains', 'sorry', undefined], ['icontains', 'Ann', 2]]],
      ['t1.v2.p1', 'Hello, Bob!', [['not-contains', 'sorry', undefined], ['icontains', 'Bob', 2]]],
    ]);
    expect(suite.cases.at(0)?.assert[1]?.metric).toBe('naming');
    expect(suite.models).toEqual([]);
  });

  it('reads the YAML threshold forms of latency and cost, and a test threshold', () => {
    const suite = read([
      "prompts: ['Hi']",
      'providers: [ { id: "openai:chat:gpt-4o", label: fast } ]',
      'tests:',
      '  - threshold: 0.5',
      '    assert:',
      '      - { type: latency, threshold: 5000 }',
      '      - { type: cost, threshold: 0.01 }',
      '      - { type: levenshtein, value: Hello, threshold: 3 }',
    ]);
    expect(suite.models).toEqual(['gpt-4o']);
    expect(suite.cases.at(0)?.score_threshold).toBe(0.5);
    expect(suite.cases.at(0)?.assert.map((a) => [a.type, a.value])).toEqual([['max-latency-ms', 5000], ['max-credits', 0.01], ['levenshtein', { to: 'Hello', max: 3 }]]);
    expect(suite.warnings).toContainEqual(expect.stringMatching(/provider label "fast" is reported as model "gpt-4o"/));
  });

  it('makes tests sharing metadata.conversationId the turns of one thread', () => {
    const suite = read([
      "prompts: ['{{q}}']",
      'tests:',
      '  - { vars: { q: Which plans? }, metadata: { conversationId: plans } }',
      '  - { vars: { q: The second one?" }, metadata: { conversationId: plans } }',
    ]);
    expect(suite.threads.map((t) => [t.id, t.turns.map((turn) => turn.prompt)])).toEqual([['plans', ['Which plans?', 'The second one?"']]]);
  });

  it('refuses what it cannot map, saying what to write instead', () => {
    expect(problemsOf([
      "prompts: ['{{_conversation}} {{q}}']",
      'providers: [ "http://localhost:8080/chat", "exec: ./run.sh" ]',
      'evaluateOptions: { maxConcurrency: 2 }',
      'tests: [ { vars: { q: x }, assert: [ { type: contains, value: x, transform: output.trim() } ] } ]',
    ])).toEqual([
      expect.stringMatching(/pf\.yaml:1:11 prompts: the prompt uses _conversation: the service keeps the conversation itself/),
      expect.stringMatching(/pf\.yaml:2:14 providers\[0\]: provider "http:\/\/localhost:8080\/chat" names no model .* the service under test is the provider/),
      expect.stringMatching(/pf\.yaml:2:44 providers\[1\]: provider "exec: \.\/run\.sh" names no model/),
      expect.stringMatching(/pf\.yaml:3:1 evaluateOptions: "evaluateOptions" is not read by kbbench/),
    ]);
    expect(problemsOf(["prompts: ['{{q}}']", 'tests: [ { vars: { q: x }, assert: [ { type: contains, value: x, transform: output.trim() } ] } ]'])).toEqual([
      expect.stringMatching(/pf\.yaml:2:38 tests\[0\]\.assert\[0\]\.transform: unknown key "transform" in an assertion; kbbench checks the answer as the service gave it/),
    ]);
  });

  it('maps provider ids to models', () => {
    expect(modelOfProvider('openai:gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(modelOfProvider('anthropic:messages:claude-sonnet-4-6')).toBe('claude-sonnet-4-6');
    expect(modelOfProvider('ollama:chat:llama3.1:8b')).toBe('llama3.1:8b');
    expect(modelOfProvider('file://provider.js')).toBeUndefined();
    expect(modelOfProvider('echo')).toBeUndefined();
  });
});

describe("promptfoo's words in a kbbench suite", () => {
  it('points vars at how kbbench takes variables, and cost at max-credits', () => {
    expect(problemsOf(['cases:', '  - id: a', '    prompt: A', '    vars: { x: 1 }', '    assert: [ { cost: 0.1 } ]'])).toEqual([
      expect.stringMatching(/unknown key "vars" in a case \(kbbench takes variables in a promptfoo config/),
    ]);
    expect(problemsOf(['cases:', '  - id: a', '    prompt: A', '    assert: [ { costs: 0.1 } ]'])).toEqual([expect.stringMatching(/unknown check type "costs"/)]);
    expect(problemsOf(['cases:', '  - id: a', '    prompt: A', '    assert: [ { type: is-json, value: { type: object } } ]'])).toEqual([
      expect.stringMatching(/is-json|value: takes no value; a JSON Schema is not validated/),
    ]);
  });
});
