// What the console prints: one fact once (credits unknown, after a run and after a merge), and
// `--quiet` keeps the verdict line and the report path (issue 20, item 22).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess as runCli, tempDir } from './helpers.js';
import { hostileSuite, startHostileServer, type HostileServer } from './hostile-server.js';

const KEY = 'kb-live-console-0123456789';

describe('console lines (item 22)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
    // A stream without a usage chunk: charged, cost unknown.
    server.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"type":"text-delta","id":"t","delta":"an answer"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n');
    });
  });
  afterAll(() => server.close());

  it('"credits unknown" is said once, by a run and by a merge of its shards', async () => {
    const dir = tempDir();
    const suite = hostileSuite(dir, 6);
    writeFileSync(suite, readFileSync(suite, 'utf8').replace('streaming: false', 'streaming: true'));
    const shards = [join(dir, 's1'), join(dir, 's2')];
    for (const [i, out] of shards.entries()) {
      const r = await runCli(['run', suite, '--base-url', server.url, '--out', out, '--shard', `${i + 1}/2`], { env: { KBBENCH_API_KEY: KEY } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.match(/credits unknown for/g)).toHaveLength(1);
    }
    const m = await runCli(['merge', ...shards, '--out', join(dir, 'merged')]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout.match(/credits unknown for/g)).toHaveLength(1);
    expect(m.stdout).toContain('credits unknown for 6 answers (no usage report)');
  });

  it('--quiet prints the verdict line and the report path, and nothing else on either stream', async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 3), '--base-url', server.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^hostile · run [0-9a-f-]+ · completed · verdict PASS$/),
      `reports: ${out}/report.html`,
    ]);
    expect(r.stderr).toBe('');
  });
});
