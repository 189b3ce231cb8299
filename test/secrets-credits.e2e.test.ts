// A service that echoes the API key in credits_used / credits_remaining (a JSON answer, a usage
// chunk): the key reaches no file of a run or of estimate's sample, and no output (issue 20, item 14).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../src/test-support/raw-server.js';
import type { Sample } from '../src/domain/sample.js';
import { readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';
import { hostileSuite, startHostileServer, type HostileServer } from './hostile-server.js';

const KEY = 'kb-live-7f3a9c2e51d04b8a-echoed';

function everyFileUnder(dir: string): string {
  return readdirSync(dir).map((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? everyFileUnder(path) : readFileSync(path, 'utf8');
  }).join('\n');
}

describe('credits_invalid never carries the key (item 14)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  it('a JSON answer with the key as credits_used and credits_remaining: the answer is kept, the key is nowhere', async () => {
    server.answer((_req, res, key) => sendJson(res, 200, { text: 'fine', credits_used: key, credits_remaining: `left: ${key}` }));
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 3), '--base-url', server.url, '--out', out], { env: { KBBENCH_API_KEY: KEY } });
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples).toHaveLength(3);
    for (const s of samples) {
      expect(s.outcome).toBe('ok');
      expect(s.credits_invalid).toMatch(/^credits_used a string of \d+ characters, credits_remaining a string of \d+ characters$/);
    }
    expect(everyFileUnder(out)).not.toContain(KEY);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
  });

  it('a usage chunk with the key as credits_used, in estimate\'s sample: the key is in no file and no output', async () => {
    server.answer((_req, res, key) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {"type":"text-delta","id":"t","delta":"streamed"}\n\ndata: {"type":"finish"}\n\ndata: {"type":"usage","credits_used":${JSON.stringify(key)}}\n\ndata: [DONE]\n\n`);
    });
    const dir = tempDir();
    const out = join(dir, 'sample');
    const suite = hostileSuite(dir, 4);
    writeFileSync(suite, readFileSync(suite, 'utf8').replace('streaming: false', 'streaming: true'));
    const r = await runCli(['estimate', suite, '--base-url', server.url, '--sample', '2', '--out', out, '--json'], { env: { KBBENCH_API_KEY: KEY } });
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.every((s) => /^credits_used a string of \d+ characters$/.test(s.credits_invalid ?? ''))).toBe(true);
    expect(everyFileUnder(out)).not.toContain(KEY);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
  });
});
