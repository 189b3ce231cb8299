// U+202E and other bidi controls from outside (a case id, a model name, an answer) are written
// escaped, as control characters are, in samples.csv, cases.csv, summary.csv and the --markdown file
// (issue 20, item 20). A real server on 127.0.0.1, the built CLI run in this process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../src/test-support/raw-server.js';
import { runCliInProcess as runCli, tempDir } from './helpers.js';
import { HOSTILE_BOARD, startHostileServer, type HostileServer } from './hostile-server.js';

const KEY = 'kb-live-bidi-0123456789';
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

describe('bidi overrides in report files (item 20)', () => {
  let server: HostileServer;
  let answer = 'good \u202eevil';
  beforeAll(async () => {
    server = await startHostileServer();
    server.answer((_req, res) => sendJson(res, 200, { text: answer, credits_used: 0.01, credits_remaining: 9 }));
  });
  afterAll(() => server.close());

  it('are escaped (\\u202e) in samples.csv, cases.csv, summary.csv and the --markdown file', async () => {
    const dir = tempDir();
    const suite = join(dir, 'bidi.yaml');
    writeFileSync(suite, `name: bidi\ntarget: { board_id: ${HOSTILE_BOARD}, chat_id: c }\nmodels: ["gpt\\u202e-4o"]\ndefaults: { streaming: false }\ncases:\n  - { id: "refund\\u202eevil\\u2066x", prompt: hi, assert: [ { contains: good } ] }\n`);
    const base = join(dir, 'base');
    expect((await runCli(['run', suite, '--base-url', server.url, '--out', base, '--quiet'], { env: { KBBENCH_API_KEY: KEY } })).code).toBe(0);
    answer = 'bad \u202eevil';
    const head = join(dir, 'head');
    const md = join(dir, 'compare.md');
    const r = await runCli(['run', suite, '--base-url', server.url, '--out', head, '--baseline', base, '--markdown', md], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(1);
    for (const file of [join(head, 'samples.csv'), join(head, 'cases.csv'), join(head, 'summary.csv'), md]) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(BIDI);
      expect(text, file).toMatch(/\\+u202e/);
    }
    expect(readFileSync(join(head, 'samples.csv'), 'utf8')).toContain('bad \\u202eevil');
  });
});
