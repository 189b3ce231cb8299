// Setup mistakes are not quality failures: a mistyped chat id or a model the service does not know
// stops the run early with a message naming it (exit 3, not 1), and `validate` checks the workspace
// a run would use (issue 20, item 3). The embedded service and a real server on 127.0.0.1.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../src/test-support/raw-server.js';
import type { RunInfo } from '../src/domain/run.js';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';
import { HOSTILE_BOARD, HOSTILE_CHAT, hostileSuite, startHostileServer, type HostileServer } from './hostile-server.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

describe('a run whose every request is refused the same way stops early (item 3)', () => {
  it('a mistyped chat id (404 on every request): exit 3, aborted, the chat named, most of the plan not sent', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--out', out, '--chat', 'chatNode-patient-stra-4uIJt', '--latency-scale', '0', '--concurrency', '1']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/aborted: every request so far \(3, of 2 models\) was refused the same way \(.*HTTP 404.*\): check the target \(board winter-frost-CJk4G, chat chatNode-patient-stra-4uIJt\)/);
    expect(readJson<RunInfo>(join(out, 'run.json'))).toMatchObject({ status: 'aborted', abort: { by: 'setup' } });
    expect(readNdjson<Sample>(join(out, 'results.ndjson')).length).toBeLessThan(14);
  });

  it('an unknown model (--models gpt-5): exit 3, the model named', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--out', out, '--models', 'gpt-5', '--latency-scale', '0', '--concurrency', '1']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/aborted: every request of model gpt-5 so far \(3\) was refused the same way .*--models gpt-5/);
  });

  describe('against a live service', () => {
    let server: HostileServer;
    beforeAll(async () => {
      server = await startHostileServer();
      server.answer((_req, res) => sendJson(res, 404, { error: 'Not found', message: 'Chat chat-hostile not found.' }));
    });
    afterAll(() => server.close());

    it('404 on every request: stops after three, exit 3', async () => {
      const before = server.requests.length;
      const dir = tempDir();
      const r = await runCli(['run', hostileSuite(dir, 20), '--base-url', server.url, '--out', join(dir, 'run'), '--concurrency', '1'], { env: { KBBENCH_API_KEY: 'kb-live-setup-0123456789' } });
      expect(r.code).toBe(3);
      // Three refusals decide; the worker may have started one more before the third was judged.
      expect(server.requests.slice(before).filter((q) => q.path === '/api/conversation').length).toBeLessThanOrEqual(4);
      expect(r.stdout).toMatch(/every request of model gpt-4o so far \(3\) was refused the same way/);
    });

    it('a service that answers stays a quality verdict: wrong answers are exit 1, not 3', async () => {
      server.answer((_req, res) => sendJson(res, 200, { text: 'no idea', credits_used: 0.01, credits_remaining: 9 }));
      const dir = tempDir();
      const suite = join(dir, 'checked.yaml');
      writeFileSync(suite, `name: checked\ntarget: { board_id: ${HOSTILE_BOARD}, chat_id: ${HOSTILE_CHAT} }\nmodels: [gpt-4o]\ndefaults: { streaming: false }\ncases:\n${[1, 2, 3, 4].map((i) => `  - { id: q${i}, prompt: 'Q${i}?', assert: [ { contains: 'yes' } ] }\n`).join('')}`);
      const r = await runCli(['run', suite, '--base-url', server.url, '--out', join(dir, 'run')], { env: { KBBENCH_API_KEY: 'kb-live-setup-0123456789' } });
      expect(r.code).toBe(1);
    });
  });
});

describe('validate checks the workspace a run would use (item 3)', () => {
  const suiteWith = (dir: string, workspace: string): string => {
    const suite = join(dir, 'suite.yaml');
    writeFileSync(suite, `name: ws\nworkspace: ${workspace}\nmodels: [gpt-4o]\ncases:\n  - id: a\n    prompt: hi\n`);
    return suite;
  };

  it('a missing workspace file: exit 2 naming it', async () => {
    const dir = tempDir();
    const r = await runCli(['validate', suiteWith(dir, 'missing-workspace.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing-workspace\.yaml.*cannot read workspace file: ENOENT/);
    expect(r.stdout).not.toMatch(/valid/);
  });

  it('a document the workspace names that is not there: exit 2 naming the document and its line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ws.yaml'), `accounts: [ { id: a, name: A, key: kb-test-0000-local, credits: 1000 } ]\nboards:\n  - id: b\n    name: B\n    account: a\n    chats:\n      - id: c\n        documents: ['gone.md']\n`);
    const r = await runCli(['validate', suiteWith(dir, 'ws.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ws\.yaml:8 boards\[0\]\.chats\[0\]\.documents\[0\]: cannot read document .*gone\.md: ENOENT/);
  });

  it('the demo suite and its workspace stay valid', async () => {
    const r = await runCli(['validate', 'suites/demo.yaml']);
    expect(r.code).toBe(0);
    expect(existsSync(join(ROOT, 'suites/demo/workspace.yaml'))).toBe(true);
  });
});
