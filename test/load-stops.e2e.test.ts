// Stop conditions: an abortOnFail threshold or an error limit stops the run cleanly. Counted at the
// server (a proxy in front of it): every request that reached it has its result line, none more.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startCountingProxy, startServe, startServiceInProcess, tempDir, type CountingProxy, type ServeHandle } from './helpers.js';

const sent = (samples: Sample[]): number => samples.filter((s) => s.endpoint !== 'create' && s.outcome !== 'skipped').length;

describe('stop conditions', () => {
  // A process of its own: the abortOnFail test compares when requests started with when the first ended,
  // which a service sharing the run's event loop would bend. The faulty one (counts only) is in this one.
  let serve: ServeHandle;
  let proxy: CountingProxy;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0.2']);
  });
  afterAll(async () => {
    await proxy?.stop();
    await serve.stop();
  });

  it('an abortOnFail threshold stops the run: status aborted, exit 1, no request starts after the stop', async () => {
    proxy = await startCountingProxy(serve.url);
    const out = join(tempDir(), 'run');
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', proxy.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '20', '--duration', '4s', '--retries', '0',
        '--threshold', 'latency_ms=max<1;abortOnFail', '--quiet'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(1);
    const run = readJson<{ status: string; abort: { by: string; detail: string }; plan: { starts: number } }>(join(out, 'run.json'));
    expect(run.status).toBe('aborted');
    expect(run.abort.by).toBe('threshold');
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    // What reached the service is exactly what was recorded: in-flight requests finished, none started after.
    expect(proxy.answers()).toBe(sent(samples));
    expect(sent(samples)).toBeGreaterThan(0);
    expect(sent(samples)).toBeLessThan(run.plan.starts);
    // The stop came with the first result: every request had started before the first one ended.
    const firstEnd = Math.min(...samples.map((s) => s.offset_ms + (s.latency_ms ?? 0)));
    const lastStart = Math.max(...samples.map((s) => s.offset_ms));
    expect(lastStart).toBeLessThanOrEqual(firstEnd + 500); // against ~4000 had it gone on
    await proxy.stop();
  });

  it('--max-errors stops cleanly: status aborted, exit 3, nothing sent unrecorded', async () => {
    const faulty = await startServiceInProcess({ latencyScale: 0, faultRate: 1 });
    proxy = await startCountingProxy(faulty.url);
    try {
      const out = join(tempDir(), 'run');
      const r = await runCli(
        ['run', 'test/fixtures/e2e/small.yaml', '--base-url', proxy.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '20', '--duration', '5s', '--retries', '0', '--max-errors', '5', '--quiet'],
        { env: { KBBENCH_API_KEY: faulty.key } },
      );
      expect(r.code, r.stderr).toBe(3);
      const run = readJson<{ status: string; abort: { by: string }; plan: { starts: number } }>(join(out, 'run.json'));
      expect(run.status).toBe('aborted');
      expect(run.abort.by).toBe('max-errors');
      const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
      expect(proxy.answers()).toBe(sent(samples));
      expect(sent(samples)).toBeGreaterThanOrEqual(5);
      expect(sent(samples)).toBeLessThan(run.plan.starts);
    } finally {
      await proxy.stop();
      await faulty.stop();
    }
  });
});
