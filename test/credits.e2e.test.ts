// The ledger end to end: reconciliation finds spend from outside the run (a second client on the same
// account of a `kbbench serve`) to 1e-5 and nothing on a clean run; streamed runs say where their
// balance came from (reported in the usage chunk when the service adds it, else unknown).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { CreditsSummary } from '../src/credits/run-credits.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

const DEMO = 'suites/demo.yaml';
const TARGET = { board: 'winter-frost-CJk4G', chat: 'chatNode-patient-star-4uIJt' };

const creditsOf = (dir: string) => readJson<{ credits: CreditsSummary }>(join(dir, 'summary.json')).credits;

/** A second client on the same account: one JSON answer, its cost as the service reported it. */
async function spendOutside(serve: ServeHandle, prompt: string): Promise<number> {
  const url = `${serve.url}/api/conversation?board_id=${TARGET.board}&chat_id=${TARGET.chat}`;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': serve.key }, body: JSON.stringify({ prompt, model: 'gpt-4o' }) });
  const body = (await response.json()) as { credits_used: number };
  return body.credits_used;
}

const untilResults = async (dir: string, lines: number): Promise<void> => {
  for (let i = 0; i < 400; i += 1) {
    const file = join(dir, 'results.ndjson');
    if (existsSync(file) && readFileSync(file, 'utf8').split('\n').filter(Boolean).length >= lines) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the run wrote no results');
};

describe('credit reconciliation against kbbench serve', () => {
  let serve: ServeHandle;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0.05', '--seed', '3']);
  });
  afterAll(async () => serve.stop());

  const run = (out: string, extra: string[] = []) =>
    runCli(['run', DEMO, '--base-url', serve.url, '--no-stream', '--concurrency', '1', '--models', 'gpt-4o,gpt-4o-mini', '--quiet', '--out', out, ...extra], { env: { KBBENCH_API_KEY: serve.key } });

  it('reports no unexplained spend on a clean run, and the spend in money with --credit-price', async () => {
    const out = join(tempDir(), 'clean');
    expect((await run(out, ['--credit-price', '0.5', '--currency', 'EUR'])).code).toBe(0);
    const c = creditsOf(out);
    const total = c.models['gpt-4o']!.sum + c.models['gpt-4o-mini']!.sum;
    expect(c.money).toMatchObject({ credit_price: 0.5, currency: 'EUR' });
    expect(c.money!.total).toBeCloseTo(total * 0.5, 6);
    expect(c.reconciliation.answers).toBe(30);
    expect(c.reconciliation).toMatchObject({ unexplained: 0, gaps: [], gaps_left_out: 0 });
    expect(c.remaining.source).toBe('reported');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('No unexplained spend');
    expect(html).toMatch(/In money at 0\.5 EUR a credit/);
  });

  it('finds a second client\'s spend on the same account during the run, to 1e-5', async () => {
    const out = join(tempDir(), 'outside');
    const running = run(out);
    await untilResults(out, 3);
    const outside = (await spendOutside(serve, 'Which plans include single sign-on?')) + (await spendOutside(serve, 'How long is the free trial?'));
    expect((await running).code).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.length).toBe(30);
    const c = creditsOf(out);
    expect(c.reconciliation.unexplained).toBeCloseTo(outside, 5);
    const found = c.reconciliation.gaps.reduce((a, g) => a + g.amount, 0);
    expect(Math.round(found * 1e5)).toBe(Math.round(outside * 1e5));
    for (const gap of c.reconciliation.gaps) expect(gap.from_remaining - gap.to_remaining - gap.expected).toBeCloseTo(gap.amount, 5);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/credits unexplained/);
  });

  it('reconciles parallel shards on one account over the merged samples: each alone sees the other as outside spend', async () => {
    const root = tempDir();
    const shards = [join(root, 's1'), join(root, 's2')];
    const results = await Promise.all(shards.map((out, i) =>
      runCli(['run', DEMO, '--base-url', serve.url, '--no-stream', '--concurrency', '1', '--models', 'gpt-4o,gpt-4o-mini', '--shard', `${i + 1}/2`, '--quiet', '--out', out], { env: { KBBENCH_API_KEY: serve.key } })));
    for (const r of results) expect(r.code).toBe(0);
    // Each shard alone sees the other's spend only where their answers interleaved on the account
    // (on a loaded machine one shard can finish before the other starts): judge by the balances.
    const balances = shards.map((dir) => readNdjson<Sample>(join(dir, 'results.ndjson'))
      .map((s) => s.credits_remaining).filter((c): c is number => typeof c === 'number'));
    const [lo1, hi1] = [Math.min(...balances[0]!), Math.max(...balances[0]!)];
    const interleaved = balances[1]!.some((c) => c > lo1 && c < hi1);
    const alone = shards.map((dir) => creditsOf(dir).reconciliation.unexplained);
    if (interleaved) expect(Math.max(...alone)).toBeGreaterThan(0);
    const merged = join(root, 'merged');
    expect((await runCli(['merge', ...shards, '--out', merged, '--quiet'])).code).toBe(0);
    expect(creditsOf(merged).reconciliation).toMatchObject({ answers: 30, unexplained: 0, gaps: [] });
  });
});

describe('credits_remaining in streamed runs', () => {
  it('reads it from the usage chunk when the service adds it (serve --usage-remaining), and says it is unknown when not', async () => {
    for (const [flags, source] of [[['--usage-remaining'], 'reported'], [[], 'unknown']] as const) {
      const serve = await startServe(['--latency-scale', '0', '--seed', '3', ...flags]);
      try {
        const out = join(tempDir(), 'streamed');
        const r = await runCli(['run', DEMO, '--base-url', serve.url, '--models', 'gpt-4o-mini', '--quiet', '--out', out], { env: { KBBENCH_API_KEY: serve.key } });
        expect(r.code).toBe(0);
        const samples = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.endpoint !== 'create');
        expect(samples.every((s) => s.streaming)).toBe(true);
        const c = creditsOf(out);
        expect(c.remaining.source, flags.join(' ')).toBe(source);
        if (source === 'reported') {
          expect(samples.every((s) => s.credits_remaining !== null)).toBe(true);
          expect(c.reconciliation).toMatchObject({ answers: 15, unexplained: 0, gaps: [] });
        } else {
          expect(samples.every((s) => s.credits_remaining === null)).toBe(true);
          expect(c.remaining.detail).toMatch(/usage chunk carries credits_used alone/);
        }
      } finally {
        await serve.stop();
      }
    }
  });
});
