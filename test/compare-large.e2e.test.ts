// Issue 20 item 19: compare outputs do not grow with answer size, and compare holds a bounded part of each
// answer. A service on 127.0.0.1 answers every request with its own 1 MB text.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../src/test-support/raw-server.js';
import { readJson, runCli as spawnCli, runCliInProcess as runCli, tempDir } from './helpers.js';
import { hostileSuite, startHostileServer, type HostileServer } from './hostile-server.js';

const KEY = 'kb-key-0123456789';
const ANSWER_CHARS = 1_000_000;

interface Side { text: string; text_cut?: { shown: number; chars: number } }
interface Cmp { counts: Record<string, number>; changed: { base: Side; head: Side }[] }

describe('compare with very long answers (issue 20 item 19)', () => {
  let server: HostileServer;
  let served = 0;
  const runs: string[] = [];
  beforeAll(async () => {
    server = await startHostileServer();
    // Every answer its own: a 1 MB body that starts with its number, so no two repeats agree.
    server.answer((_req, res) => {
      served += 1;
      sendJson(res, 200, { text: `answer ${served} ${'lorem ipsum '.repeat(ANSWER_CHARS / 12)}`, credits_used: 0.01, credits_remaining: 1000 });
    });
    const dir = tempDir();
    const suite = hostileSuite(dir, 4);
    for (const name of ['base', 'head']) {
      const out = join(dir, name);
      const r = await runCli(['run', suite, '--base-url', server.url, '--out', out, '--repeat', '8', '--quiet'], { env: { KBBENCH_API_KEY: KEY } });
      expect(r.code, r.stderr).toBe(0);
      runs.push(out);
    }
  }, 180_000);
  afterAll(() => server.close());

  // The gates judged are the ones about answers: timing 1 MB bodies on loopback is machine noise,
  // and the latency gate failed a clean run once on an idle machine.
  it('cuts answers in compare.json and compare.html, with a note, and keeps them whole in results.ndjson', async () => {
    const [base, head] = runs as [string, string];
    const out = join(tempDir(), 'cmp');
    const r = await runCli(['compare', base, head, '--out', out, '--fail-on', 'regressions,missing']);
    expect(r.code, r.stderr).toBe(0);
    const c = readJson<Cmp>(join(out, 'compare.json'));
    expect(c.counts.changed).toBe(4);
    for (const change of c.changed) {
      expect(change.head.text).toHaveLength(8000);
      expect(change.head.text_cut).toEqual({ shown: 8000, chars: expect.any(Number) });
      expect(change.head.text_cut!.chars).toBeGreaterThan(ANSWER_CHARS - 100);
    }
    // Four items of 1 MB answers on both sides: on main 8 MB of answers went into each file, several times over.
    expect(statSync(join(out, 'compare.json')).size).toBeLessThan(400_000);
    expect(statSync(join(out, 'compare.html')).size).toBeLessThan(400_000);
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('results.ndjson holds it whole');
    const line = readFileSync(join(head, 'results.ndjson'), 'utf8').split('\n')[0]!;
    expect((JSON.parse(line) as { text: string }).text.length).toBeGreaterThan(ANSWER_CHARS - 100);
  });

  it('holds a bounded part of each answer: compare fits a heap far smaller than the answers it keeps apart', async () => {
    // 2 runs × 4 items × 8 distinct 1 MB answers: 64 MB of text that main kept whole (MAX_DISTINCT_TEXTS = 8).
    const [base, head] = runs as [string, string];
    // A child process: the 48 MB heap limit is the point (NODE_OPTIONS applies to a process).
    const r = await spawnCli(['compare', base, head, '--fail-on', 'regressions,missing', '--out', join(tempDir(), 'cmp')], { env: { NODE_OPTIONS: '--max-old-space-size=48' } });
    expect(r.stderr).not.toMatch(/heap out of memory/i);
    expect(r.code).toBe(0);
  });
});
