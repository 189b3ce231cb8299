// Issue 17, item 10: a target that dies mid-run is not hammered with retries to the end. Once every
// result of a window (--error-window, 10 s by default) failed to connect, the run stops as
// unreachable: status aborted, exit 3 (incomplete), the rest of the schedule unsent.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess, startServiceInProcess, tempDir, type InProcessService } from './helpers.js';
import { startLoadPeer, type LoadPeer } from './load-peer.js';

describe('a target that dies', () => {
  let serve: InProcessService;
  let peer: LoadPeer;
  beforeAll(async () => {
    serve = await startServiceInProcess({ latencyScale: 0 });
    peer = await startLoadPeer(serve.url);
  });
  afterAll(async () => {
    await peer.stop();
    await serve.stop();
  });

  it('stops as unreachable once a window of results all failed to connect', async () => {
    const out = join(tempDir(), 'run');
    let killed = false;
    // In this process (no signal, no pipe here): the live line is read as it is written.
    const r = await runCliInProcess(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', peer.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '10', '--duration', '40s', '--error-window', '2s'],
      {
        env: { KBBENCH_API_KEY: serve.key },
        onStderr: (text) => {
          if (killed || !/live: /.test(text)) return;
          killed = true;
          void peer.stop(); // the port now refuses connections
        },
      },
    );
    expect(r.code, r.stderr).toBe(3);
    const run = readJson<{ status: string; abort: { by: string }; plan: { starts: number } }>(join(out, 'run.json'));
    expect(run.status).toBe('aborted');
    expect(run.abort.by).toBe('unreachable');
    const samples = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.endpoint !== 'create' && s.outcome !== 'skipped');
    const refused = samples.filter((s) => s.error?.code === 'E_CONNECTION');
    expect(refused.length).toBeGreaterThanOrEqual(10);
    // Far from the 400 planned starts it would have hammered the dead port with.
    expect(samples.length).toBeLessThan(run.plan.starts / 2);
    expect(r.stderr).toMatch(/unreachable/);
  });
});
