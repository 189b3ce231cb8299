// `similar` end to end (issue 19 item 5): a service on 127.0.0.1 gives the two answers of the issue; the
// answer with the wrong number fails and the longer correct one passes at the default bar, lexically
// and with an OpenAI-compatible /v1/embeddings endpoint served by the same real HTTP server.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { sendJson } from '../src/test-support/raw-server.js';
import { readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';
import { HOSTILE_BOARD, HOSTILE_CHAT, startHostileServer, type HostileServer } from './hostile-server.js';

const REFERENCE = 'You have 72 hours to collect a parcel after it is delivered to the locker.';
const ANSWERS: Record<string, string> = {
  'How long can a parcel wait? (bullets)': `${REFERENCE}\n\n- Open the compartment with the 6-digit pickup code from the SMS or the ParcelPoint app.\n- If you cannot make it in time, you can extend the pickup window once by 24 hours in the app, free of charge.`,
  'How long can a parcel wait? (wrong)': 'You have 48 hours to collect a parcel after it is delivered to the locker.',
};
const KEY = 'kb-key-0123456789';
const EMBEDDINGS_KEY = 'sk-embed-0123456789abcdef';

function writeSuite(dir: string): string {
  const cases = Object.keys(ANSWERS)
    .map((prompt, i) => `  - id: ${i === 0 ? 'pickup-bullets' : 'pickup-wrong'}\n    prompt: "${prompt}"\n    assert:\n      - similar: "${REFERENCE}"\n`)
    .join('');
  const path = join(dir, 'parcels.yaml');
  writeFileSync(path, `name: parcels\ntarget: { board_id: ${HOSTILE_BOARD}, chat_id: ${HOSTILE_CHAT} }\nmodels: [gpt-4o]\ndefaults: { streaming: false }\ncases:\n${cases}`);
  return path;
}

describe('similar knows a wrong number (issue 19 item 5)', () => {
  let server: HostileServer;
  let embeddingsStatus: 'up' | 'failing' | 'down' = 'up';
  beforeAll(async () => {
    server = await startHostileServer();
    server.answer((req, res) => {
      if (req.path === '/v1/embeddings') {
        const { input } = JSON.parse(req.body) as { input: string[] };
        // `failing`: the checks' calls fail, the run's one preflight call answers; `down`: every call fails.
        const fails = embeddingsStatus === 'down' || (embeddingsStatus === 'failing' && input.length === 2);
        if (fails) return sendJson(res, 503, { error: { message: 'overloaded' } });
        // Every text on one direction: the embeddings call every answer a perfect match, so only the facts can fail one.
        return sendJson(res, 200, { object: 'list', data: input.map((_t, index) => ({ object: 'embedding', index, embedding: [0.6, 0.8] })) });
      }
      const { prompt } = JSON.parse(req.body) as { prompt: string };
      sendJson(res, 200, { text: ANSWERS[prompt] ?? 'no idea', credits_used: 0.01, credits_remaining: 10 });
    });
  });
  afterAll(() => server.close());

  const byCase = (out: string) => new Map(readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => [s.case_id, s]));

  it('lexical (the default, no network but the service): the longer correct answer passes, the 48-hours one fails naming the fact', async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', writeSuite(dir), '--base-url', server.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(1);
    const results = byCase(out);
    expect(results.get('pickup-bullets')!.checks[0]).toMatchObject({ type: 'similar', pass: true });
    expect(results.get('pickup-wrong')!.checks[0]).toMatchObject({ type: 'similar', pass: false });
    expect(results.get('pickup-wrong')!.checks[0]!.detail).toContain('says "48 hours" where the reference says "72 hours"');
    expect(server.requests.some((q) => q.path === '/v1/embeddings')).toBe(false);
  });

  it('with --embeddings-url: the text score comes from the endpoint, the facts still decide, the key is sent and never written', async () => {
    embeddingsStatus = 'up';
    const dir = tempDir();
    const out = join(dir, 'run');
    const before = server.requests.length;
    const r = await runCli(['run', writeSuite(dir), '--base-url', server.url, '--out', out, '--quiet', '--embeddings-url', `${server.url}/v1`, '--embeddings-model', 'embed-test'], {
      env: { KBBENCH_API_KEY: KEY, KBBENCH_EMBEDDINGS_API_KEY: EMBEDDINGS_KEY },
    });
    expect(r.code).toBe(1);
    const results = byCase(out);
    expect(results.get('pickup-bullets')!.checks[0]).toMatchObject({ pass: true, detail: 'similarity (embeddings) 1.000 ≥ 0.6' });
    expect(results.get('pickup-wrong')!.checks[0]!.pass).toBe(false);
    const calls = server.requests.slice(before).filter((q) => q.path === '/v1/embeddings');
    // One preflight call before the first question, then one per similar check.
    expect(calls.map((q) => (JSON.parse(q.body) as { input: string[] }).input.length)).toEqual([1, 2, 2]);
    expect(calls[1]!.headers.authorization).toBe(`Bearer ${EMBEDDINGS_KEY}`);
    expect(JSON.parse(calls[1]!.body)).toMatchObject({ model: 'embed-test', input: [expect.any(String), REFERENCE] });
    for (const file of ['results.ndjson', 'run.json', 'summary.json']) expect(readFileSync(join(out, file), 'utf8')).not.toContain(EMBEDDINGS_KEY);
  });

  it('an embeddings endpoint that fails during the run leaves a check its facts do not fail not judged (pass: null), never a lexical guess', async () => {
    embeddingsStatus = 'failing';
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', writeSuite(dir), '--base-url', server.url, '--out', out, '--quiet', '--embeddings-url', `${server.url}/v1`], { env: { KBBENCH_API_KEY: KEY } });
    const results = byCase(out);
    expect(results.get('pickup-bullets')!.checks[0]).toMatchObject({ pass: null, not_judged: expect.stringMatching(/^the embeddings endpoint .* answered HTTP 503$/) });
    // The wrong number fails on its facts alone, which need no embeddings.
    expect(results.get('pickup-wrong')!.checks[0]).toMatchObject({ pass: false, detail: expect.stringContaining('says "48 hours" where the reference says "72 hours"') });
    expect(r.code).toBe(1);
  });

  it('an embeddings endpoint down before the run: exit 2 naming the flag, no question sent', async () => {
    embeddingsStatus = 'down';
    const dir = tempDir();
    const before = server.requests.length;
    const r = await runCli(['run', writeSuite(dir), '--base-url', server.url, '--out', join(dir, 'run'), '--embeddings-url', `${server.url}/v1`], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--embeddings-url.*answered HTTP 503/);
    expect(server.requests.slice(before).filter((q) => q.path !== '/v1/embeddings' && q.path !== '/api/boards')).toEqual([]);
  });

  it('a malformed --embeddings-url is exit 2 naming the flag, nothing sent', async () => {
    const dir = tempDir();
    const before = server.requests.length;
    const r = await runCli(['run', writeSuite(dir), '--base-url', server.url, '--embeddings-url', 'not a url'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--embeddings-url');
    expect(server.requests.length).toBe(before);
  });
});
