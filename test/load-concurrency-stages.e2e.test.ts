// Issue 17, item 7: `--concurrency-stages` says sensible things. Not "10 requests" then
// `progress: 1925/10` and a log line per request, but its load in the header and the live line.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readNdjson, runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

describe('--concurrency-stages on the console', () => {
  let serve: ServeHandle;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0']);
  });
  afterAll(() => serve.stop());

  it('the header names the ramp, the live line the workers asked for, and no progress line per request', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--concurrency-stages', '1s:2,2s:2'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    // Many passes through the 5-unit plan: far more results than the plan's requests.
    expect(samples.length).toBeGreaterThan(20);
    expect(r.stderr).toMatch(/load: --concurrency-stages: up to 2 workers over 3s/);
    expect(r.stderr).not.toMatch(/\d+ requests against/);
    expect(r.stderr).toMatch(/live: \d+s · workers now \d+ · last \d+s: achieved/);
    const progress = r.stderr.split('\n').filter((l) => l.startsWith('progress:'));
    expect(progress.length).toBeLessThanOrEqual(2);
    expect(progress.every((l) => !/(\d+)\/(\d+) done/.test(l) || Number(/(\d+)\//.exec(l)![1]) <= Number(/\/(\d+)/.exec(l)![1]))).toBe(true);
  });
});
