// One rule for a torn tail, shared by the reader and the appender (issue 20, items 7 and 11): a
// whole result without its newline is kept (never lost, never paid twice); a fragment is cut; a
// torn timeline.ndjson second is cut as results.ndjson's is.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startCountingProxy, startServe, tempDir, type CountingProxy, type ServeHandle } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';
const PLANNED = 14; // small.yaml on one model: 4 cases + 3 turns, twice

describe('a results.ndjson whose last line lacks its newline', () => {
  let serve: ServeHandle;
  let proxy: CountingProxy;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0', '--workspace', 'suites/demo/workspace.yaml']);
    proxy = await startCountingProxy(serve.url);
  });
  afterAll(async () => {
    await proxy.stop();
    await serve.stop();
  });
  const env = () => ({ KBBENCH_API_KEY: serve.key });
  const runArgs = (out: string) => ['run', SUITE, '--base-url', proxy.url, '--board', 'winter-frost-CJk4G', '--chat', 'chatNode-patient-star-4uIJt', '--models', 'gpt-4o-mini', '--repeat', '2', '--concurrency', '1', '--out', out];

  it('is a whole result when it parses as one: the resume neither loses nor re-sends it, and thread turns stay in order', async () => {
    const out = join(tempDir(), 'run');
    const full = await runCli(runArgs(out), { env: env() });
    expect(full.code).toBe(0);
    const results = join(out, 'results.ndjson');
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(PLANNED);
    // Keep the file up to a thread's first turn, and leave that line without its newline.
    const cut = lines.findIndex((l) => (JSON.parse(l) as Sample).thread_id === 'plans' && (JSON.parse(l) as Sample).turn === 1);
    expect(cut).toBeGreaterThan(0);
    writeFileSync(results, lines.slice(0, cut + 1).join('\n'));
    const info = readJson<Record<string, unknown>>(join(out, 'run.json'));
    writeFileSync(join(out, 'run.json'), JSON.stringify({ ...info, status: 'interrupted', finished_at: null }));

    const answersBefore = proxy.answers();
    const resumed = await runCli(['run', SUITE, '--resume', out, '--concurrency', '1'], { env: env() });
    expect(resumed.code).toBe(0);
    const after = readNdjson<Sample>(results);
    expect(after).toHaveLength(PLANNED);
    expect(new Set(after.map((s) => s.item_id)).size).toBe(PLANNED);
    // Exactly the requests that had no line were sent: the kept one was not paid for twice.
    expect(proxy.answers() - answersBefore).toBe(PLANNED - (cut + 1));
    for (const repeat of [1, 2]) {
      const turns = after.filter((s) => s.thread_id === 'plans' && s.repeat === repeat).map((s) => s.turn);
      expect(turns).toEqual([1, 2, 3]); // file order: no turn sent after the ones that follow it
    }
  });

  it('is cut when it is a fragment: the resume sends that request again, once', async () => {
    const out = join(tempDir(), 'run');
    expect((await runCli(runArgs(out), { env: env() })).code).toBe(0);
    const results = join(out, 'results.ndjson');
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean);
    writeFileSync(results, `${lines.slice(0, 5).join('\n')}\n${lines[5]!.slice(0, 60)}`);
    const info = readJson<Record<string, unknown>>(join(out, 'run.json'));
    writeFileSync(join(out, 'run.json'), JSON.stringify({ ...info, status: 'interrupted', finished_at: null }));
    const answersBefore = proxy.answers();
    const resumed = await runCli(['run', SUITE, '--resume', out, '--concurrency', '1'], { env: env() });
    expect(resumed.code).toBe(0);
    const after = readNdjson<Sample>(results);
    expect(after).toHaveLength(PLANNED);
    expect(new Set(after.map((s) => s.item_id)).size).toBe(PLANNED);
    expect(proxy.answers() - answersBefore).toBe(PLANNED - 5);
  });
});
