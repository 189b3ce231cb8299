// The budget guards against a real service that prices its first answer low and the rest high, and
// one whose balance falls faster than its credits_used says (issue 20, items 15 and 16).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../src/test-support/raw-server.js';
import type { Summary } from '../src/domain/summary.js';
import { readJson, runCliInProcess as runCli, tempDir } from './helpers.js';
import { hostileSuite, startHostileServer, type HostileServer } from './hostile-server.js';

const KEY = 'kb-live-budget-0123456789';

describe('--max-credits: spent ≤ budget + one answer when the first answer is cheap and the rest dear (item 15)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  it('0.01 then 1.0 per answer, 8 workers, --max-credits 2: at most 3 credits spent, the overshoot in summary.json', async () => {
    let asked = 0;
    server.answer((_req, res) => {
      asked += 1;
      const cost = asked === 1 ? 0.01 : 1;
      // Slow enough that a guard admitting several at once would have them all in flight together.
      setTimeout(() => sendJson(res, 200, { text: 'an answer', credits_used: cost, credits_remaining: 1000 - asked }), 50);
    });
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 40), '--base-url', server.url, '--out', out, '--concurrency', '8', '--max-credits', '2'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(3);
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.totals.credits_used).toBeLessThanOrEqual(2 + 1);
    expect(asked).toBeLessThanOrEqual(3);
    expect(summary.credits?.budget).toMatchObject({ max_credits: 2, spent: summary.totals.credits_used });
    expect(summary.credits?.budget?.overshoot).toBe(Math.max(0, Math.round((summary.totals.credits_used - 2) * 1e5) / 1e5));
  });

  it('a steady price admits requests together once priced, and the budget holds with no overshoot', async () => {
    server.answer((_req, res) => {
      setTimeout(() => sendJson(res, 200, { text: 'an answer', credits_used: 0.1, credits_remaining: 1000 }), 20);
    });
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 40), '--base-url', server.url, '--out', out, '--concurrency', '4', '--max-credits', '2'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(3);
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.totals.credits_used).toBeLessThanOrEqual(2);
    expect(summary.totals.credits_used).toBeGreaterThanOrEqual(1.5);
    expect(summary.credits?.budget?.overshoot).toBe(0);
  });
});

describe('--min-remaining reads credits_remaining as the service reports it (item 16)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  it('a balance reported at 499.95, then 99.91, then below zero stops the run under --min-remaining 500 (exit 3)', async () => {
    const balances = [1000, 499.95, 99.91, -3];
    let asked = 0;
    server.answer((_req, res) => {
      asked += 1;
      sendJson(res, 200, { text: 'an answer', credits_used: 0.01, credits_remaining: balances[Math.min(asked - 1, balances.length - 1)] });
    });
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 20), '--base-url', server.url, '--out', out, '--min-remaining', '500'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/--min-remaining 500/);
    expect(asked).toBe(2);
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('budget-exhausted');
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.credits?.budget).toMatchObject({ min_remaining: 500, remaining: 499.95, below_min_remaining: 0.05 });
  });

  it('a service that reports a balance but no valid credits_used is still guarded by that balance', async () => {
    let asked = 0;
    server.answer((_req, res) => {
      asked += 1;
      sendJson(res, 200, { text: 'an answer', credits_used: -1, credits_remaining: 600 - asked * 60 });
    });
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 20), '--base-url', server.url, '--out', out, '--min-remaining', '500'], { env: { KBBENCH_API_KEY: KEY } });
    expect(r.code).toBe(3);
    expect(asked).toBe(2); // 540 (start another), 480 (stop)
  });
});
