// The service-wide pause fault (`serve --pause-every --pause-for`) against an open-loop run: the
// starts it holds back show in corrected latency's high percentiles, while latency measured from
// the send hides it (only the few requests in flight when a pause begins see it).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

// A slow rate and one request in flight keep the harness far from its own limits even on a busy
// machine, so what corrected latency shows is the pauses, not a backlog of the harness's own.
const EVERY_MS = 3000;
const PAUSE_MS = 1000;
const DURATION_S = 9;
const RATE = 10;
const MAX_IN_FLIGHT = 1;

interface Totals {
  latency_ms: { p95: number };
  corrected_latency_ms: { p95: number } | null;
}

describe('open loop against a service that pauses', () => {
  let serve: ServeHandle;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0', '--pause-every', `${EVERY_MS}ms`, '--pause-for', `${PAUSE_MS}ms`]);
  });
  afterAll(() => serve.stop());

  it('shows the pauses in corrected high percentiles and hides them in uncorrected ones', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', String(RATE), '--duration', `${DURATION_S}s`, '--max-in-flight', String(MAX_IN_FLIGHT),
        // One slot and a 1 s pause: starts held past 1 s are dropped; this run allows some (the `dropped` gate would fail it).
        '--threshold', 'dropped=rate<0.5', '--quiet'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.length).toBeGreaterThan(RATE * DURATION_S * 0.8);
    const long = PAUSE_MS / 2;
    // Held by a pause from the send: at most the requests in flight as each pause began (the run,
    // with its drain, overlaps at most DURATION_S + 2 pauses).
    const heldFromSend = samples.filter((s) => (s.latency_ms ?? 0) >= long).length;
    expect(heldFromSend).toBeLessThanOrEqual(MAX_IN_FLIGHT * ((DURATION_S * 1000) / EVERY_MS + 2));
    // Held counting from the intended start: every start a pause delayed by half its length or more.
    const heldFromIntent = samples.filter((s) => (s.corrected_latency_ms ?? 0) >= long).length;
    expect(heldFromIntent / samples.length).toBeGreaterThan(0.05);
    expect(heldFromIntent).toBeGreaterThan(2 * heldFromSend);
    const { totals } = readJson<{ totals: Totals }>(join(out, 'summary.json'));
    expect(totals.corrected_latency_ms!.p95).toBeGreaterThanOrEqual(long);
    expect(totals.latency_ms.p95).toBeLessThan(long);
  });
});
