// Derived runs of a load test, end to end: `run --baseline --confirm 1` after an open loop
// (Poisson arrivals, a shuffled mix) or a sweep with SLOs re-asks the flips as a closed loop of
// its own (the run config with its load replaced), and exits 1 on the confirmed flips, never 2
// after the main run was paid for. And `estimate --sample` on a suite whose `load:` block is a
// sweep with SLOs sends its sample as a closed loop.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../src/compare/types.js';
import { demoWorkspaceWithRefundWindowChanged, readJson, ROOT, runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/compare/suite.yaml';
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];
const root = tempDir('kbbench-confirm-derived-e2e-');
const dir = (name: string): string => join(root, name);

describe('kbbench run --baseline --confirm 1 after a load test', () => {
  let workspace: string;
  beforeAll(async () => {
    const base = await runCli(['run', SUITE, '--out', dir('base'), '--seed', '1', '--latency-scale', '0', '--quiet']);
    expect(base.code, base.stderr).toBe(0);
    workspace = demoWorkspaceWithRefundWindowChanged(dir('workspace'));
  }, 120_000);

  // 40 starts over a plan of 36 items: every item, the flipped one included, is asked at least once.
  const loads: [string, string[]][] = [
    ['Poisson arrivals', ['--rate', '10', '--duration', '4s', '--arrival', 'poisson']],
    ['a shuffled mix', ['--rate', '10', '--duration', '4s', '--mix', 'shuffle']],
    ['a sweep with SLOs', ['--sweep', '2', '--duration', '2s', '--slo', 'ttfc_ms=p(95)<60000', '--max-in-flight', '8']],
  ];
  it.each(loads)('%s: the flips are re-asked as a closed loop, and the confirmed ones fail the run (exit 1)', async (name, load) => {
    const out = dir(name.replaceAll(' ', '-'));
    const r = await runCli(['run', SUITE, '--workspace', workspace, '--baseline', dir('base'), '--out', out, '--seed', '1', '--confirm', '1', '--fail-on', 'regressions', '--latency-scale', '0.02', '--quiet', ...load]);
    expect(r.code, r.stderr).toBe(1);
    const c = readJson<Comparison>(join(out, 'compare.json'));
    const confirmed = c.confirm!.items.filter((i) => i.verdict === 'confirmed').map((i) => i.item_id).sort();
    expect(confirmed).toEqual(MODELS.map((m) => `case:refund-window|model:${m}`));
    const reask = readJson<{ load: { spec: { kind: string } } }>(join(out, 'confirm/run.json'));
    expect(reask.load.spec.kind).toBe('closed');
  }, 180_000);
});

describe('kbbench estimate --sample on a suite whose load: block is a sweep with SLOs', () => {
  it('sends its sample as a closed loop and forecasts one pass of the plan, saying the sweep is not counted', async () => {
    const suite = join(root, 'sweep-suite.yaml');
    writeFileSync(suite, [
      'name: sweep-in-suite',
      `workspace: ${join(ROOT, 'suites/demo/workspace.yaml')}`,
      'target: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }',
      'models: [gpt-4o-mini]',
      'load: { sweep: 3, duration: 10s, max_in_flight: 16, slo: ["ttfc_ms=p(95)<2000", "pass_rate=rate>=0.9"] }',
      'cases:',
      '  - { id: refund-window, prompt: How long do customers have to ask for a refund?, assert: [{ contains: 30 days }] }',
      '  - { id: team-price, prompt: How much does the Team plan cost?, assert: [{ contains: €29 }] }',
      '',
    ].join('\n'));
    const out = dir('estimate-sample');
    const r = await runCli(['estimate', suite, '--sample', '1', '--json', '--latency-scale', '0', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const estimate = JSON.parse(r.stdout) as { sample: { requests: number; status: string }; forecast_for: { requests: number; load_not_counted: string | null } };
    expect(estimate.sample).toMatchObject({ requests: 1, status: 'completed' });
    // One pass of the plan, and said so: the sweep's own volume is not silently taken for it.
    expect(estimate.forecast_for).toMatchObject({ requests: 2, load_not_counted: "a sweep's volume depends on the rates its probes find" });
    expect(readJson<{ load: { spec: { kind: string } } }>(join(out, 'run.json')).load.spec.kind).toBe('closed');
  }, 60_000);
});
