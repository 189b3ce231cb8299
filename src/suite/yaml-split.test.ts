import { describe, expect, it } from 'vitest';
import { splitYamlSuite } from './yaml-split.js';
import { parseWholeYamlSuite, parseYamlSuite } from './yaml.js';

const SUITES: Record<string, string> = {
  plain: `name: s\nmodels: [gpt-4o, mistral-x]\ncases:\n  - id: a\n    prompt: hi\n    assert: [ { contains: x }, { regex: 'y' } ]\n  - id: b   # a comment\n    prompt: |\n      - not an item\n      two\n    models: [gpt-4o, other-model]\n\n# between\nthreads:\n  - id: t\n    turns:\n      - prompt: one\n        assert:\n          - icontains: z\n      - prompt: two\nthresholds:\n  latency_ms: ['p(95)<2000']\n`,
  columnZero: `cases:\n- id: a\n  prompt: hi\n- id: b\n  prompt: "multi\n    line"\nmodels:\n- gpt-4o\n`,
  crlf: `name: w\r\ncases:\r\n  - id: a\r\n    prompt: hi\r\n`,
  bom: `\uFEFFname: b\ncases:\n  - id: a\n    prompt: hi\n`,
};

describe('the item-by-item YAML reading', () => {
  for (const [name, text] of Object.entries(SUITES)) {
    it(`gives what the whole parse gives, locations included (${name})`, () => {
      expect(splitYamlSuite(text)).not.toBeNull();
      expect(parseYamlSuite(text, 'f.yaml')).toEqual(parseWholeYamlSuite(text, 'f.yaml'));
    });
  }

  it('leaves what it cannot cut safely to the whole parse', () => {
    for (const text of [
      'cases: [ { id: a, prompt: hi } ]\n',
      '---\ncases:\n  - id: a\n    prompt: hi\n',
      'cases:\n  - id: a\n\tprompt: hi\n',
      'cases:\n  - id: a\n    prompt: hi\ncases:\n  - id: b\n    prompt: hi\n',
      '"cases":\n  - id: a\n    prompt: hi\n',
    ]) expect(splitYamlSuite(text), text).toBeNull();
  });

  it('an alias to an anchor in another item, or an invalid item, reads whole: the same value or the same error', () => {
    const alias = 'cases:\n  - id: a\n    prompt: &p hi\n  - id: b\n    prompt: *p\n';
    expect(parseYamlSuite(alias, 'f.yaml')).toEqual(parseWholeYamlSuite(alias, 'f.yaml'));
    const invalid = 'cases:\n  - id: a\n  - id: b\n    prompt: hi\n';
    expect(() => parseYamlSuite(invalid, 'f.yaml')).toThrow();
    let whole: unknown;
    try {
      parseWholeYamlSuite(invalid, 'f.yaml');
    } catch (error) {
      whole = error;
    }
    expect(() => parseYamlSuite(invalid, 'f.yaml')).toThrow(whole as Error);
  });
});
