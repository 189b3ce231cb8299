// Failed requests are not "credits unknown": 429s are counted apart as not charged, streams cut mid-answer as maybe charged.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJson, runCliInProcess as runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

interface Totals { requests: number; errors: number; credits_unknown: number; failed_requests_credits: { may_be_charged: number; not_charged: number } }

describe('credits of failed requests', () => {
  let serve: ServeHandle | undefined;
  afterEach(async () => serve?.stop());

  async function runAgainst(faults: string[]) {
    serve = await startServe(['--latency-scale', '0', '--seed', '5', ...faults]);
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--base-url', serve.url, '--out', out, '--retries', '0', '--models', 'gpt-4o-mini'], { env: { KBBENCH_API_KEY: serve.key } });
    return { r, totals: readJson<{ totals: Totals }>(join(out, 'summary.json')).totals };
  }

  it('every request refused with 429: no answer has unknown credits; all failed, none charged', async () => {
    const { r, totals } = await runAgainst(['--rate-limit-rate', '1', '--retry-after', '0']);
    expect(r.code).toBe(1);
    expect(totals.errors).toBe(totals.requests);
    expect(totals.credits_unknown).toBe(0);
    expect(totals.failed_requests_credits).toEqual({ may_be_charged: 0, not_charged: totals.requests });
    expect(r.stdout).not.toMatch(/credits unknown/);
    expect(r.stdout).toMatch(new RegExp(`failed requests ${totals.requests} \\(may have been charged: 0; not charged: ${totals.requests}\\)`));
  });

  it('every stream cut mid-answer: failed requests the service may have charged', async () => {
    const { totals } = await runAgainst(['--cut-rate', '1']);
    expect(totals.errors).toBe(totals.requests);
    expect(totals.credits_unknown).toBe(0);
    expect(totals.failed_requests_credits).toEqual({ may_be_charged: totals.requests, not_charged: 0 });
  });
});
