// The suite's `grader:` and `knowledge:` blocks.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSuite } from './load.js';
import { SuiteError } from './suite-error.js';

const yaml = (text: string) => parseSuite(Buffer.from(text), 'dir/inline.yaml');
const CASES = 'cases:\n  - id: a\n    prompt: Hi\n';

describe('grader: and knowledge:', () => {
  it('reads a chat grader, an OpenAI-compatible one, and knowledge patterns relative to the suite', () => {
    expect(yaml(`grader: { chat_id: chatNode-g, model: gpt-4o-mini }\n${CASES}`).grader).toEqual({ kind: 'chat', chat_id: 'chatNode-g', model: 'gpt-4o-mini', location: { file: 'dir/inline.yaml', line: 1, column: 9 } });
    expect(yaml(`grader: { openai: { base_url: "http://127.0.0.1:8000/v1", model: llama3 } }\n${CASES}`).grader).toMatchObject({ kind: 'openai', base_url: 'http://127.0.0.1:8000/v1', model: 'llama3' });
    expect(yaml(`knowledge: [docs/*.md]\n${CASES}`).knowledge).toMatchObject({ patterns: [resolve('dir/docs/*.md')] });
  });

  it('refuses a grader of neither form, at its line', () => {
    try {
      yaml(`grader: { openai: { model: llama3 } }\n${CASES}`);
      throw new Error('expected a rejection');
    } catch (error) {
      expect(error).toBeInstanceOf(SuiteError);
      expect((error as SuiteError).issues.map((i) => i.describe()).join('\n')).toMatch(/dir\/inline\.yaml:1/);
    }
  });

  it('names the field a mistake is in, inside either form (not only "neither form matched")', () => {
    const problems = (text: string): string => {
      try {
        yaml(`${text}\n${CASES}`);
      } catch (error) {
        return (error as SuiteError).issues.map((i) => i.describe()).join('\n');
      }
      throw new Error('expected a rejection');
    };
    const calibration = problems('grader: { chat_id: g, min_kappa: high, min_labelz: 3 }');
    expect(calibration).toMatch(/grader\.min_kappa: expected a number between -1 and 1/);
    expect(calibration).toMatch(/unknown key "min_labelz" in grader \(did you mean "min_labels"\?\)/);
    expect(problems('grader: { openai: { base_url: "http://127.0.0.1:8000/v1" } }')).toMatch(/grader\.openai\.model: is required/);
    expect(problems('grader: judge')).toMatch(/a grader is \{ chat_id/);
  });
});
