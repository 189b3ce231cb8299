// `kbbench estimate` end to end: a sample of the demo suite (or runs already made), then the real
// run's spend against the forecast.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

const DEMO = 'suites/demo.yaml';
const DEMO_KEY = 'kb-demo-0000-local';
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];
const FIXED = ['--latency-scale', '0', '--seed', '11'];

interface Interval { credits: number; low: number; high: number }
interface EstimateJson {
  total: Interval & { requests: number; label: string };
  models: Record<string, Interval & { requests: number; credits_per_request: number; estimator: string; sample: { requests: number } }>;
  sample_credits_used: number;
  level: number;
  method: string;
  forecast_for: { requests: number; volume: { requests: number; per: string | null; each_model: boolean } | null };
  sample: { run_dir: string; status: string; requests: number; size: string; per_model: Record<string, number> } | null;
  from: { run_dirs: string[]; requests: number; items_matched: number; items_planned: number } | null;
  money: { credit_price: number; currency: string | null; total: { amount: number }; models: Record<string, { amount: number }> } | null;
  runway: { balance: number; balance_source: string; unit: string; total: { lasts: number }; models: Record<string, { lasts: number }> } | null;
}

const spent = (samples: Sample[]) => samples.reduce((a, s) => a + (s.credits_used ?? 0), 0);
const covers = (i: Interval, truth: number) => i.low <= truth + 1e-9 && truth <= i.high + 1e-9;

async function runSpend(dir: string, args: string[]): Promise<{ total: number; models: Record<string, number> }> {
  const full = await runCli(['run', DEMO, ...FIXED, '--quiet', '--out', dir, ...args]);
  expect(full.code).toBe(0);
  const summary = readJson<{ totals: { credits_used: number }; models: Record<string, { credits_used: number }> }>(join(dir, 'summary.json'));
  return { total: summary.totals.credits_used, models: Object.fromEntries(Object.entries(summary.models).map(([m, x]) => [m, x.credits_used])) };
}

describe('kbbench estimate --sample 10% --repeat 4 (embedded service, fixed seed)', () => {
  const sampleDir = join(tempDir(), 'sample');
  let estimate: EstimateJson;
  let code: number | null;
  let printed = '';
  let actual: { total: number; models: Record<string, number> };

  beforeAll(async () => {
    const r = await runCli(['estimate', DEMO, ...FIXED, '--sample', '10%', '--repeat', '4', '--json', '--out', sampleDir]);
    code = r.code;
    printed = r.stdout + r.stderr;
    estimate = JSON.parse(r.stdout) as EstimateJson;
    actual = await runSpend(join(tempDir(), 'full'), ['--repeat', '4']);
  });

  it('prints the contract shape, with the forecast for the whole plan', () => {
    expect(code).toBe(0);
    expect(Object.keys(estimate.models)).toEqual(MODELS);
    for (const entry of [estimate.total, ...Object.values(estimate.models)]) {
      expect(entry.low).toBeLessThanOrEqual(entry.credits);
      expect(entry.credits).toBeLessThanOrEqual(entry.high);
    }
    expect(estimate.total.requests).toBe(180);
    expect(estimate.forecast_for).toMatchObject({ requests: 180, volume: null });
    expect(estimate.level).toBe(0.95);
    expect(estimate.method).toMatch(/finite-population correction/);
  });

  it('samples a tenth of the distinct items (at least two per model), a linking case every model is asked, and says what it spent', () => {
    expect(estimate.sample!.size).toBe('10% of the distinct items');
    for (const model of MODELS) expect(estimate.sample!.per_model[model]).toBe(2);
    const samples = readNdjson<Sample>(join(sampleDir, 'results.ndjson')).filter((s) => s.endpoint !== 'create');
    expect(samples).toHaveLength(estimate.sample!.requests);
    const items = samples.map((s) => s.case_id ?? `${s.thread_id}#${s.turn}`);
    expect(new Set(items).size).toBeGreaterThan(2);
    const linking = samples.filter((s) => s.case_id !== null).map((s) => s.case_id);
    expect(new Set(linking).size).toBe(1);
    expect(linking).toHaveLength(3);
    expect(estimate.sample_credits_used).toBeCloseTo(spent(samples), 5);
    expect(readJson<EstimateJson>(join(sampleDir, 'estimate.json')).total).toEqual(estimate.total);
    expect(estimate.sample_credits_used).toBeLessThan(actual.total / 10);
  });

  it('holds what the real run then spends inside its 95% interval, and is near it', () => {
    expect(covers(estimate.total, actual.total), `${actual.total} in ${JSON.stringify(estimate.total)}`).toBe(true);
    // Six answers of a 180-request plan (three distinct items: one linking case every model is asked,
    // so each model's forecast stands on all three through the cross-model ratio). The sample is
    // deterministic and the demo's costs barely move with the seed: 9.8% off on seeds 1, 2, 3, 7, 11, 42
    // (README, "estimate"). A random sample of that size lands within 10% about a third of the time
    // (BENCHMARKS.md i.): this checks the forecast this sample gives, the bench measures the estimator.
    expect(Math.abs(estimate.total.credits / actual.total - 1)).toBeLessThan(0.1);
  });

  it('never prints or writes the API key', () => {
    expect(printed).not.toContain(DEMO_KEY);
    for (const f of readdirSync(sampleDir)) expect(readFileSync(join(sampleDir, f), 'utf8'), f).not.toContain(DEMO_KEY);
  });
});

describe('kbbench estimate --from (nothing sent)', () => {
  let counter: Server;
  let hits = 0;
  let url = '';
  beforeAll(async () => {
    // Anything estimate sent would land here: a real HTTP server that only counts.
    counter = createServer((_req, res) => {
      hits += 1;
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => counter.close(() => r())));

  it('forecasts the next identical run from one already made, within 10% and inside its interval', async () => {
    const root = tempDir();
    await runSpend(join(root, 'first'), ['--repeat', '2']);
    const r = await runCli(['estimate', DEMO, '--from', join(root, 'first'), '--repeat', '2', '--base-url', url, '--json'], { env: { KBBENCH_API_KEY: 'kb-count-only' } });
    expect(r.code, r.stderr).toBe(0);
    expect(hits).toBe(0);
    const estimate = JSON.parse(r.stdout) as EstimateJson;
    expect(estimate.sample).toBeNull();
    expect(estimate.sample_credits_used).toBe(0);
    expect(estimate.from).toMatchObject({ items_matched: 45, items_planned: 45, requests: 90 });
    const next = await runSpend(join(root, 'next'), ['--repeat', '2']);
    expect(Math.abs(estimate.total.credits / next.total - 1)).toBeLessThan(0.1);
    expect(covers(estimate.total, next.total)).toBe(true);
    for (const model of MODELS) expect(covers(estimate.models[model]!, next.models[model]!), model).toBe(true);
  });

  it('takes an edited question for a new one: matched by id and a hash of its prompt', async () => {
    const root = tempDir();
    await runSpend(join(root, 'first'), ['--models', 'gpt-4o-mini']);
    const suite = readFileSync(join(process.cwd(), DEMO), 'utf8').replace('How long is the free trial?', 'How long is the free trial, in days?').replace('workspace: demo/workspace.yaml', `workspace: ${join(process.cwd(), 'suites/demo/workspace.yaml')}`);
    const edited = join(root, 'edited.yaml');
    (await import('node:fs')).writeFileSync(edited, suite);
    const r = await runCli(['estimate', edited, '--from', join(root, 'first'), '--models', 'gpt-4o-mini', '--json'], { env: { KBBENCH_API_KEY: 'kb-count-only' } });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as EstimateJson).from).toMatchObject({ items_matched: 14, items_planned: 15 });
  });
});

describe('kbbench estimate options', () => {
  it('keeps the sample within --max-credits, and says it stopped early (exit 3)', async () => {
    const out = join(tempDir(), 'sample');
    const r = await runCli(['estimate', DEMO, '--latency-scale', '0', '--json', '--out', out, '--sample', '10', '--max-credits', '0.05']);
    expect(r.code).toBe(3);
    const estimate = JSON.parse(r.stdout) as EstimateJson;
    expect(estimate.sample!.status).toBe('budget-exhausted');
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(spent(samples)).toBeLessThanOrEqual(0.05);
    expect(estimate.sample_credits_used).toBeLessThanOrEqual(0.05);
  });

  it('forecasts a volume per model (each taking all of it), the total at the suite\'s split, in money, with a runway', async () => {
    const out = join(tempDir(), 'sample');
    const args = ['--requests', '50000', '--per', 'month', '--credit-price', '0.5', '--currency', 'EUR', '--balance', '20000'];
    const r = await runCli(['estimate', DEMO, '--latency-scale', '0', '--out', out, ...args]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/forecast for 50,000 requests like those of demo per month, each model taking all of them/);
    // Issue 33: which interval it is, labelled as one, and priced.
    expect(r.stdout).toMatch(/the 95% interval is for traffic of new questions like the suite's/);
    expect(r.stdout).toMatch(/^model\s+requests\s+credits\s+95% low\s+95% high\s+per request\s+money\s+money 95% low\s+money 95% high/m);
    for (const model of MODELS) expect(r.stdout).toMatch(new RegExp(`^${model}\\s+50,000\\s`, 'm'));
    expect(r.stdout).toMatch(/^total \(the suite's split\)\s+50,000\s/m);
    expect(r.stdout).toMatch(/runway: 20,000.00000 credits \(--balance\) last/);
    const estimate = readJson<EstimateJson>(join(out, 'estimate.json'));
    expect(estimate.forecast_for.volume).toEqual({ requests: 50000, per: 'month', each_model: true });
    for (const model of MODELS) {
      const m = estimate.models[model]!;
      expect(m.requests).toBe(50000);
      expect(estimate.money!.models[model]!.amount).toBeCloseTo(m.credits * 0.5, 5);
      expect(estimate.runway!.models[model]!.lasts).toBeCloseTo(20000 / m.credits, 1);
    }
    expect(estimate.total.label).toMatch(/suite's plan splits them/);
    expect(estimate.money).toMatchObject({ credit_price: 0.5, currency: 'EUR' });
    expect(estimate.runway).toMatchObject({ balance: 20000, balance_source: '--balance', unit: 'month' });
  });

  it('refuses bad input before sending anything (exit 2)', async () => {
    const out = join(tempDir(), 'sample');
    for (const args of [['--sample', '0'], ['--sample', '0%'], ['--sample', '120%'], ['--level', '150%'], ['--resume', out], ['--rate', '5'], ['--from', out], ['--from', '.', '--sample', '3']]) {
      const r = await runCli(['estimate', DEMO, '--latency-scale', '0', '--out', out, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
    }
  });
});
