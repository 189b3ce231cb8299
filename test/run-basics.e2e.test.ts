// `kbbench run` end to end against the embedded reference service: files, fields, order, secrecy.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, tempDir, type CliResult } from './helpers.js';

const DEMO_KEY = 'kb-demo-0000-local';
const RESULT_FIELDS = [
  'item_id', 'case_id', 'thread_id', 'turn', 'model', 'repeat', 'endpoint', 'method', 'streaming', 'conversation_id', 'started_at',
  'status', 'outcome', 'error', 'attempts', 'ttfb_ms', 'ttfc_ms', 'latency_ms', 'chunks', 'chars', 'text', 'credits_used',
  'credits_remaining', 'checks', 'pass',
];

describe('kbbench run (embedded service)', () => {
  const out = join(tempDir(), 'run');
  let result: CliResult;
  let samples: Sample[];

  beforeAll(async () => {
    result = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--out', out, '--concurrency', '6', '--repeat', '2', '--latency-scale', '0.05']);
    samples = readNdjson<Sample>(join(out, 'results.ndjson'));
  });

  it('exits 0 with every contract file written', () => {
    expect(result.stderr).not.toMatch(/Error|error:/);
    expect(result.code).toBe(0);
    for (const f of ['run.json', 'results.ndjson', 'summary.json', 'samples.csv', 'summary.csv', 'report.html', 'junit.xml']) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    expect(result.stdout).toContain('gpt-4o-mini');
    expect(result.stdout).toContain('report.html');
  });

  it('records one line per request with every contract field and monotonic sub-ms times', () => {
    expect(samples).toHaveLength((4 + 3) * 2 * 2);
    for (const s of samples) {
      for (const field of RESULT_FIELDS) expect(s, field).toHaveProperty(field);
      expect(s.outcome).toBe('ok');
      expect(s.ttfb_ms!).toBeLessThanOrEqual(s.ttfc_ms!);
      expect(s.ttfc_ms!).toBeLessThanOrEqual(s.latency_ms!);
      expect(s.credits_used).toBeGreaterThan(0);
    }
    expect(samples.some((s) => !Number.isInteger(s.latency_ms))).toBe(true);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
  });

  it('keeps thread order under concurrency, one conversation per thread instance', () => {
    const threads = new Map<string, Sample[]>();
    for (const s of samples.filter((x) => x.thread_id)) {
      const key = `${s.model}|${s.repeat}`;
      threads.set(key, [...(threads.get(key) ?? []), s]);
    }
    expect(threads.size).toBe(4);
    for (const turns of threads.values()) {
      expect(turns.map((t) => t.turn)).toEqual([1, 2, 3]);
      expect(new Set(turns.map((t) => t.conversation_id)).size).toBe(1);
      expect(turns[0]!.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
      for (let i = 1; i < turns.length; i += 1) {
        // A turn starts only after the previous one has answered.
        expect(turns[i]!.offset_ms).toBeGreaterThanOrEqual(turns[i - 1]!.offset_ms + turns[i - 1]!.latency_ms!);
      }
    }
  });

  it('writes run.json and summary.json as the contract shows', () => {
    const run = readJson<Record<string, unknown>>(join(out, 'run.json'));
    expect(run).toMatchObject({ status: 'completed', tool: { name: 'kbbench' }, plan: { requests: 28 } });
    expect(run.finished_at).toEqual(expect.any(String));
    const summary = readJson<{ verdict: string; totals: Record<string, number>; models: Record<string, { ttfc_ms: Record<string, number> }> }>(join(out, 'summary.json'));
    expect(summary.verdict).toBe('pass');
    expect(summary.totals.requests).toBe(28);
    const spent = samples.reduce((a, s) => a + s.credits_used!, 0);
    expect(summary.totals.credits_used).toBeCloseTo(spent, 5);
    expect(Object.keys(summary.models).sort()).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(summary.models['gpt-4o']!.ttfc_ms.p95).toBeGreaterThan(0);
  });

  it('never writes or prints the API key', () => {
    expect(result.stdout + result.stderr).not.toContain(DEMO_KEY);
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8'), f).not.toContain(DEMO_KEY);
  });
});

describe('kbbench run --json and --quiet', () => {
  it('prints summary.json on stdout and nothing else', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--out', out, '--json', '--quiet', '--latency-scale', '0', '--models', 'gpt-4o-mini']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { verdict: string; totals: { requests: number } };
    expect(summary.totals.requests).toBe(7);
    expect(r.stderr).toBe('');
  });
});
