// promptfoo's own example configs (test/fixtures/promptfoo, MIT) read as suites: the cases promptfoo
// would make, {{var}} rendered, and every check kbbench does not run refused by name.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../load.js';
import { SuiteError } from '../suite-error.js';

const FIXTURES = 'test/fixtures/promptfoo';

async function problems(file: string): Promise<string[]> {
  try {
    await loadSuite(file);
  } catch (error) {
    if (error instanceof SuiteError) return error.issues.map((issue) => issue.describe());
    throw error;
  }
  throw new Error(`${file} was read without a problem`);
}

function tempConfig(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-promptfoo-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, 'promptfooconfig.yaml');
}

describe('promptfoo configs', () => {
  it('getting-started: prompts × tests as cases, providers as models, {{var}} rendered', async () => {
    const suite = await loadSuite(`${FIXTURES}/getting-started/promptfooconfig.yaml`);
    expect(suite.name).toBe('Getting started');
    expect(suite.models).toEqual(['gpt-4o-mini', 'gpt-4o']);
    expect([...suite.cases].map((c) => [c.id, c.prompt, c.assert.map((a) => [a.type, a.value])])).toEqual([
      ['t1.p1', 'Convert this English to French: Hello world', [['contains', 'Bonjour le monde']]],
      ['t1.p2', 'Translate to French: Hello world', [['contains', 'Bonjour le monde']]],
      ['t2.p1', 'Convert this English to Spanish: Where is the library?', [['icontains', 'Dónde está la biblioteca']]],
      ['t2.p2', 'Translate to Spanish: Where is the library?', [['icontains', 'Dónde está la biblioteca']]],
    ]);
    expect(suite.cases.at(2)?.location).toMatchObject({ line: 18 });
  });

  it('simple-test: javascript and python are refused at their lines, nothing else', async () => {
    expect(await problems(`${FIXTURES}/simple-test/promptfooconfig.yaml`)).toEqual([
      expect.stringMatching(/promptfooconfig\.yaml:32:9 tests\[3\]\.assert\[0\]\.type: check type "javascript" is not run by kbbench: kbbench runs no code/),
      expect.stringMatching(/promptfooconfig\.yaml:34:9 tests\[3\]\.assert\[1\]\.type: check type "python" is not run by kbbench/),
    ]);
  });

  it('simple-test without its code checks: prompts file split on ---, descriptions kept in ids, $ref templates, outputPath noted', async () => {
    const text = readFileSync(`${FIXTURES}/simple-test/promptfooconfig.yaml`, 'utf8').replace(/ {6}- type: javascript\n.*\n {6}- type: python\n.*\n/, '');
    const file = tempConfig({ 'promptfooconfig.yaml': text, 'prompts.txt': readFileSync(`${FIXTURES}/simple-test/prompts.txt`, 'utf8') });
    const suite = await loadSuite(file);
    expect(suite.cases.length).toBe(10);
    expect(suite.cases.at(0)).toMatchObject({ id: 't1-check-for-exact-match.p1', prompt: 'Rephrase this from English to Pirate: Yes', description: 'Check for exact match' });
    expect(suite.cases.at(1)?.prompt).toBe("Pretend you're a pirate and speak these words: Yes");
    expect(suite.cases.at(4)?.assert.map((a) => a.type)).toEqual(['is-json']);
    expect(suite.cases.at(8)?.assert.map((a) => [a.type, a.value])).toEqual([['judge', { rubric: 'Is spoken like a pirate' }], ['icontains', 'arrr']]);
    expect(suite.warnings).toEqual([expect.stringMatching(/outputPath: kbbench writes its run directory/)]);
  });

  it('simple-test tests.csv: fn: cells refused, is-json alone read, never an equals', async () => {
    const file = tempConfig({ 'promptfooconfig.yaml': "prompts: ['Pirate: {{body}}']\nproviders: [openai:gpt-4o-mini]\ntests: file://tests.csv\n", 'tests.csv': readFileSync(`${FIXTURES}/simple-test/tests.csv`, 'utf8') });
    expect(await problems(file)).toEqual([
      expect.stringMatching(/tests\.csv:2 __expected: check type "fn" is not run by kbbench/),
      expect.stringMatching(/tests\.csv:3 __expected: check type "fn" is not run by kbbench/),
    ]);
  });

  it('simple-csv: a filter in the prompts file is refused by name, at the prompt', async () => {
    expect(await problems(`${FIXTURES}/simple-csv/promptfooconfig.yaml`)).toEqual([
      expect.stringMatching(/simple-csv\/prompts\.txt:1 prompt: \{\{ \(style_config \| load\)\.tone \}\} uses the filter "\| load"/),
      expect.stringMatching(/simple-csv\/prompts\.txt:10 prompt: \{\{ style_config \}\} names no variable; variables: language, body/),
    ]);
  });

  it('csv-metadata: __metadata becomes tags, {{topic}} rendered in the llm-rubric; a comma inside a tag is refused', async () => {
    expect(await problems(`${FIXTURES}/csv-metadata/promptfooconfig.yaml`)).toEqual([
      expect.stringMatching(/tests\.csv:3 __metadata:tags\[\]: metadata "tags=advanced,theory" cannot be a tag/),
      expect.stringMatching(/tests\.csv:4 __metadata:tags\[\]: metadata "tags=global,warming" cannot be a tag/),
    ]);
    const rows = readFileSync(`${FIXTURES}/csv-metadata/tests.csv`, 'utf8').split('\n').slice(0, 2).join('\n');
    const file = tempConfig({ 'promptfooconfig.yaml': readFileSync(`${FIXTURES}/csv-metadata/promptfooconfig.yaml`, 'utf8'), 'tests.csv': `${rows}\n` });
    const suite = await loadSuite(file);
    expect(suite.models).toEqual(['gpt-4']);
    expect(suite.cases.at(0)).toMatchObject({
      prompt: 'Tell me about machine learning',
      tags: ['category=technology', 'tags=ai', 'tags=data science', 'tags=algorithms'],
      assert: [{ type: 'contains', value: 'algorithm' }, { type: 'judge', value: { rubric: 'Does this describe machine learning accurately?' } }],
    });
    expect(suite.warnings).toContainEqual(expect.stringMatching(/provider "openai:gpt-4": config not sent/));
  });
});
