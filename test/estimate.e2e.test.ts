// `kbbench estimate` end to end: a sample of the demo suite, then the full run's spend against the forecast.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCli, tempDir } from './helpers.js';

const DEMO = 'suites/demo.yaml';
const DEMO_KEY = 'kb-demo-0000-local';
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];

interface Interval { credits: number; low: number; high: number }
interface EstimateJson {
  total: Interval & { requests: number };
  models: Record<string, Interval & { requests: number; credits_per_request: number; sample: { requests: number } }>;
  sample_credits_used: number;
  level: number;
  method: string;
  forecast_for: { requests: number; volume: { requests: number; per: string | null } | null };
  sample: { run_dir: string; status: string; requests: number; per_model: Record<string, number> };
}

const spent = (samples: Sample[]) => samples.reduce((a, s) => a + (s.credits_used ?? 0), 0);

describe('kbbench estimate (embedded service)', () => {
  const sampleDir = join(tempDir(), 'sample');
  const runDir = join(tempDir(), 'full');
  let estimate: EstimateJson;
  let code: number | null;
  let printed = '';
  let actual: { total: number; models: Record<string, number> };

  beforeAll(async () => {
    const r = await runCli(['estimate', DEMO, '--latency-scale', '0', '--json', '--out', sampleDir]);
    code = r.code;
    printed = r.stdout + r.stderr;
    estimate = JSON.parse(r.stdout) as EstimateJson;
    const full = await runCli(['run', DEMO, '--latency-scale', '0', '--quiet', '--out', runDir]);
    expect(full.code).toBe(0);
    const summary = readJson<{ totals: { credits_used: number }; models: Record<string, { credits_used: number }> }>(join(runDir, 'summary.json'));
    actual = { total: summary.totals.credits_used, models: Object.fromEntries(MODELS.map((m) => [m, summary.models[m]!.credits_used])) };
  });

  it('prints the contract shape, with the forecast for the whole plan', () => {
    expect(code).toBe(0);
    expect(Object.keys(estimate.models)).toEqual(MODELS);
    for (const entry of [estimate.total, ...Object.values(estimate.models)]) {
      for (const key of ['credits', 'low', 'high'] as const) expect(entry[key]).toEqual(expect.any(Number));
      expect(entry.low).toBeLessThanOrEqual(entry.credits);
      expect(entry.credits).toBeLessThanOrEqual(entry.high);
    }
    expect(estimate.total.requests).toBe(45);
    expect(estimate.forecast_for).toMatchObject({ requests: 45, volume: null });
    expect(estimate.level).toBe(0.95);
    expect(estimate.method).toMatch(/Student-t/);
    expect(estimate.sample_credits_used).toEqual(expect.any(Number));
  });

  it('sends at most --sample requests per model (default 5) and keeps the sample as an auditable run', () => {
    expect(estimate.sample.run_dir).toBe(sampleDir);
    for (const model of MODELS) expect(estimate.sample.per_model[model]).toBeLessThanOrEqual(5);
    const samples = readNdjson<Sample>(join(sampleDir, 'results.ndjson'));
    expect(samples).toHaveLength(estimate.sample.requests);
    expect(estimate.sample_credits_used).toBeCloseTo(spent(samples), 5);
    expect(readJson<{ status: string }>(join(sampleDir, 'run.json')).status).toBe('completed');
    expect(readJson<EstimateJson>(join(sampleDir, 'estimate.json')).total).toEqual(estimate.total);
    // The sample costs a fraction of the run it forecasts.
    expect(estimate.sample_credits_used).toBeLessThan(actual.total / 2);
  });

  it('forecasts an interval that holds what the full run then spends, in total and per model', () => {
    expect(actual.total).toBeGreaterThanOrEqual(estimate.total.low);
    expect(actual.total).toBeLessThanOrEqual(estimate.total.high);
    for (const model of MODELS) {
      const m = estimate.models[model]!;
      expect(actual.models[model], model).toBeGreaterThanOrEqual(m.low);
      expect(actual.models[model], model).toBeLessThanOrEqual(m.high);
    }
    // Not only wide: the point forecast is within half of the truth either way.
    expect(Math.abs(estimate.total.credits / actual.total - 1)).toBeLessThan(0.5);
  });

  it('never prints or writes the API key', () => {
    expect(printed).not.toContain(DEMO_KEY);
    for (const f of readdirSync(sampleDir)) expect(readFileSync(join(sampleDir, f), 'utf8'), f).not.toContain(DEMO_KEY);
  });
});

describe('kbbench estimate options', () => {
  it('keeps the sample within --max-credits, and says it stopped early (exit 3)', async () => {
    const out = join(tempDir(), 'sample');
    const r = await runCli(['estimate', DEMO, '--latency-scale', '0', '--json', '--out', out, '--sample', '10', '--max-credits', '0.05']);
    expect(r.code).toBe(3);
    const estimate = JSON.parse(r.stdout) as EstimateJson;
    expect(estimate.sample.status).toBe('budget-exhausted');
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(spent(samples)).toBeLessThanOrEqual(0.05);
    expect(estimate.sample_credits_used).toBeLessThanOrEqual(0.05);
  });

  it('forecasts a volume of traffic like the suite, and renders a table', async () => {
    const out = join(tempDir(), 'sample');
    const r = await runCli(['estimate', DEMO, '--latency-scale', '0', '--out', out, '--requests', '9000', '--per', 'day', '--models', 'gpt-4o-mini,gpt-4o']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/forecast for 9,000 requests like demo's per day/);
    expect(r.stdout).toMatch(/^model\s+requests\s+credits\s+low\s+high/m);
    expect(r.stdout).toMatch(/^gpt-4o-mini\s+4,500\s/m);
    const estimate = readJson<EstimateJson>(join(out, 'estimate.json'));
    expect(estimate.total.requests).toBe(9000);
    expect(estimate.forecast_for.volume).toEqual({ requests: 9000, per: 'day' });
  });

  it('refuses bad input before sending anything (exit 2)', async () => {
    const out = join(tempDir(), 'sample');
    for (const args of [['--sample', '0'], ['--level', '150%'], ['--resume', out], ['--rate', '5']]) {
      const r = await runCli(['estimate', DEMO, '--latency-scale', '0', '--out', out, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
    }
  });
});
