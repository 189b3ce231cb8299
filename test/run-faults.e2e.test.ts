// Retries through injected faults, the credit budget, a rejected key: the CLI against `kbbench serve`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, startServe, tempDir, type ServeHandle, runCliInProcess } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

describe('retries through injected 429s and 5xx', () => {
  let serve: ServeHandle;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0', '--rate-limit-rate', '0.3', '--retry-after', '0', '--fault-rate', '0.2', '--seed', '7']);
  });
  afterAll(() => serve.stop());

  it('retries until every request succeeds and records the attempts', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', SUITE, '--base-url', serve.url, '--out', out, '--retries', '10', '--concurrency', '4'], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples).toHaveLength(14);
    expect(samples.every((s) => s.outcome === 'ok')).toBe(true);
    expect(samples.some((s) => s.attempts > 1)).toBe(true);
  });

  it('with no retries, failures are data in the result line, and the run fails (exit 1)', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', SUITE, '--base-url', serve.url, '--out', out, '--retries', '0'], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code).toBe(1);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    const failed = samples.filter((s) => s.outcome === 'http_error');
    expect(failed.length).toBeGreaterThan(0);
    for (const s of failed) {
      expect([429, 500]).toContain(s.status);
      expect(['E_RATE_LIMITED', 'E_SERVER']).toContain(s.error?.code);
    }
    // A failed turn ends its thread: the turns after it are recorded as skipped, with the reason.
    for (const s of samples.filter((x) => x.outcome === 'skipped')) expect(s.error?.message).toMatch(/turn \d failed|could not be created/);
  });
});

describe('the credit budget', () => {
  it('stops before --max-credits could be passed: exit 3, status budget-exhausted', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', SUITE, '--out', out, '--max-credits', '0.03', '--latency-scale', '0', '--repeat', '3', '--models', 'gpt-4o']);
    expect(r.code).toBe(3);
    const run = readJson<{ status: string }>(join(out, 'run.json'));
    expect(run.status).toBe('budget-exhausted');
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    const spent = samples.reduce((a, s) => a + (s.credits_used ?? 0), 0);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.length).toBeLessThan(21);
    expect(spent).toBeLessThanOrEqual(0.03);
    expect(r.stdout).toContain('--resume');
  });
});

describe('the credit budget across models and judges', () => {
  const spentIn = (out: string): number =>
    readNdjson<Sample>(join(out, 'results.ndjson')).reduce((a, s) => a + (s.credits_used ?? 0) + s.checks.reduce((b, c) => b + (c.credits_used ?? 0), 0), 0);

  it('holds when a cheap model answers first and a dear one follows, at high concurrency', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', SUITE, '--out', out, '--max-credits', '0.05', '--latency-scale', '0', '--repeat', '3', '--concurrency', '8', '--models', 'gpt-4o-mini,claude-sonnet-5', '--quiet']);
    expect(r.code).toBe(3);
    expect(spentIn(out)).toBeLessThanOrEqual(0.05);
  });

  it('counts what judges spend against the budget', async () => {
    const out = join(tempDir(), 'run');
    // One answer with its judge costs ~0.011 (the JSON grading prompt); a budget that fits one item
    // but not a second: were the judge's spend left out, the guard would reserve only answers' cost
    // (~0.0008 each) and start more items.
    const r = await runCliInProcess(['run', 'test/fixtures/e2e/graded.yaml', '--out', out, '--max-credits', '0.015', '--latency-scale', '0', '--repeat', '4', '--concurrency', '4', '--quiet']);
    expect(r.code).toBe(3);
    expect(spentIn(out)).toBeLessThanOrEqual(0.015);
    expect(readJson<{ credits: { budget: { overshoot: number } } }>(join(out, 'summary.json')).credits.budget.overshoot).toBe(0);
  });

  it('sends nothing when the budget is zero', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', SUITE, '--out', out, '--max-credits', '0', '--latency-scale', '0', '--quiet']);
    expect(r.code).toBe(3);
    expect(readNdjson<Sample>(join(out, 'results.ndjson'))).toHaveLength(0);
  });
});

describe('a rejected key', () => {
  let serve: ServeHandle;
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0']);
  });
  afterAll(() => serve.stop());

  it('stops before sending any question (exit 3) and never echoes the key, even in the query form', async () => {
    const out = join(tempDir(), 'run');
    const wrongKey = 'sk-live-this-is-a-wrong-key-1234';
    const r = await runCliInProcess(['run', SUITE, '--base-url', serve.url, '--out', out, '--auth', 'query'], { env: { KBBENCH_API_KEY: wrongKey } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/rejected the API key/);
    expect(r.stdout + r.stderr).not.toContain(wrongKey);
    let files: string[] = [];
    try {
      files = readdirSync(out);
    } catch {
      // nothing written at all is fine too
    }
    for (const f of files) expect(readFileSync(join(out, f), 'utf8')).not.toContain(wrongKey);
  });

  it('refuses a live run without a key (exit 2), naming how to give one', async () => {
    const r = await runCliInProcess(['run', SUITE, '--base-url', serve.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/KBBENCH_API_KEY/);
  });
});
