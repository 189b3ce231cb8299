// What the service sends back that must not be taken at its word: an answer with 16 KiB+ of headers
// (it arrived: never retried, "may have been charged") and a conversation id of `.` or `..` (never
// put in a path). Issue 20, items 9 and 21; a real server on 127.0.0.1, the built CLI run in this process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../src/test-support/raw-server.js';
import type { Sample } from '../src/domain/sample.js';
import type { Summary } from '../src/domain/summary.js';
import { readJson, readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';
import { HOSTILE_BOARD, HOSTILE_CHAT, hostileSuite, startHostileServer, type HostileServer } from './hostile-server.js';

const KEY = 'kb-live-answers-arrived-42';

describe('an answer with more than 16 KiB of headers (item 9)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
    server.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(20 * 1024) });
      res.end(JSON.stringify({ text: 'an answer', credits_used: 1, credits_remaining: 100 }));
    });
  });
  afterAll(() => server.close());

  it('is sent once, recorded as its own kind (E_HEADERS_OVERFLOW) and counted "may have been charged"', async () => {
    const before = server.requests.length;
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 3), '--base-url', server.url, '--out', out, '--retries', '2', '--concurrency', '1'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(1);
    const asked = server.requests.slice(before).filter((q) => q.path === '/api/conversation');
    expect(asked).toHaveLength(3);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.map((s) => [s.error?.code, s.attempts])).toEqual([['E_HEADERS_OVERFLOW', 1], ['E_HEADERS_OVERFLOW', 1], ['E_HEADERS_OVERFLOW', 1]]);
    expect(samples[0]!.error!.message).toMatch(/may have been charged/);
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.totals.failed_requests_credits).toEqual({ may_be_charged: 3, not_charged: 0 });
  });

  it('under --max-credits, an answer of unknown cost before any known one stops the run (exit 3)', async () => {
    const before = server.requests.length;
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 5), '--base-url', server.url, '--out', out, '--max-credits', '10'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(3);
    expect(server.requests.slice(before).filter((q) => q.path === '/api/conversation')).toHaveLength(1);
  });
});

describe('a conversation id of "." or ".." from the service (item 21)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  for (const id of ['.', '..']) {
    it(`"${id}" is refused as a malformed answer, and no request goes to another path`, async () => {
      server.answer((req, res) => {
        if (req.path === '/api/conversation/new') {
          return sendJson(res, 200, { conversationId: id, name: 'x', createdAt: new Date(0).toISOString(), boardId: HOSTILE_BOARD, chatId: HOSTILE_CHAT });
        }
        sendJson(res, 200, { text: 'an answer', credits_used: 0.01, credits_remaining: 100 });
      });
      const before = server.requests.length;
      const dir = tempDir();
      const suite = join(dir, 'threads.yaml');
      writeFileSync(suite, `name: dots\ntarget: { board_id: ${HOSTILE_BOARD}, chat_id: ${HOSTILE_CHAT} }\nmodels: [gpt-4o]\ndefaults: { streaming: false }\nthreads:\n  - id: t\n    turns:\n      - prompt: first?\n      - prompt: second?\n`);
      const out = join(dir, 'run');
      const r = await runCli(['run', suite, '--base-url', server.url, '--out', out], { env: { KBBENCH_API_KEY: KEY } });
      expect(r.code).not.toBe(0);
      const paths = server.requests.slice(before).map((q) => q.path);
      expect(paths.filter((p) => p !== '/api/boards')).toEqual(['/api/conversation/new']);
      const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
      const create = samples.find((s) => s.endpoint === 'create');
      expect(create?.error?.code).toBe('E_MALFORMED_BODY');
      expect(samples.filter((s) => s.endpoint === 'continue').every((s) => s.outcome === 'skipped')).toBe(true);
    });
  }
});
