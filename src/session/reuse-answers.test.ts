import { testRunConfig } from '../config/test-support/run-config.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import type { RunConfig } from '../config/run-config.js';
import { writeRun } from '../test-support/fixtures.js';
import { assertReuseFlags } from './reuse-answers.js';

const config = (target: Partial<RunConfig['target']>, record: Partial<RunConfig['record']> = {}): RunConfig => testRunConfig({ target, record });
const thrown = (f: () => void): InputError => {
  try {
    f();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('did not throw');
};

describe('assertReuseFlags', () => {
  const dir = writeRun(join(mkdtempSync(join(tmpdir(), 'kbbench-reuse-flags-')), 'run'), []);

  it('refuses --reuse-answers against a live service without --kb-version, naming the flag', () => {
    const error = thrown(() => assertReuseFlags(config({ baseUrl: 'https://kb.example' }, { reuseAnswers: [dir] })));
    expect(error.location.field).toBe('--kb-version');
    expect(error.message).toContain('--kb-version TEXT');
    expect(() => assertReuseFlags(config({ baseUrl: 'https://kb.example', kbVersion: 'v1' }, { reuseAnswers: [dir] }))).not.toThrow();
  });

  it('refuses --kb-version on the embedded service (its documents say which knowledge base), and a source that is not a run', () => {
    expect(thrown(() => assertReuseFlags(config({ kbVersion: 'v1' }))).location.field).toBe('--kb-version');
    expect(() => assertReuseFlags(config({}, { reuseAnswers: [dir] }))).not.toThrow();
    expect(thrown(() => assertReuseFlags(config({}, { reuseAnswers: [join(dir, 'nope')] }))).message).toContain('not a run directory');
  });
});
