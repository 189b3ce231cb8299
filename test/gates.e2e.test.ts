// --fail-on gates: pass_rate thresholds judge the failed checks they cover (k6), expect_fail marks known failures, --fail-on picks the gates.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { ROOT, readJson, readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

const WORKSPACE = join(ROOT, 'suites/demo/workspace.yaml');

/** Two passing cases and one that fails its check on every model (the demo has no such phrase). */
function suite(extra: { wrongCase?: string; rightCase?: string; thresholds?: string } = {}): string {
  const path = join(tempDir(), 'gates.yaml');
  writeFileSync(path, [
    'name: gates',
    `workspace: ${WORKSPACE}`,
    'target: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }',
    'models: [gpt-4o, gpt-4o-mini]',
    'cases:',
    '  - id: refund-window',
    '    prompt: How long do customers have to ask for a refund?',
    '    assert: [ { contains: 30 days } ]',
    ...(extra.rightCase ? [`    ${extra.rightCase}`] : []),
    '  - id: encryption',
    '    prompt: How is customer data encrypted?',
    '    assert: [ { contains: AES-256 } ]',
    '  - id: unknown-fact',
    '    prompt: What is the airspeed velocity of an unladen swallow?',
    '    assert: [ { contains: "42 furlongs per fortnight" } ]',
    ...(extra.wrongCase ? [`    ${extra.wrongCase}`] : []),
    ...(extra.thresholds ? ['thresholds:', extra.thresholds] : []),
  ].join('\n'));
  return path;
}

interface Gated { verdict: string; gates: { failed: string[]; fail_on: string[]; checks: Record<string, number> } }

async function run(suitePath: string, ...flags: string[]) {
  const out = join(tempDir(), 'run');
  const r = await runCli(['run', suitePath, '--out', out, '--latency-scale', '0', '--seed', '1', ...flags]);
  return { ...r, out, summary: readJson<Gated>(join(out, 'summary.json')) };
}

describe('gates', () => {
  it('a failed check fails the run by default (the checks gate)', async () => {
    const r = await run(suite());
    expect(r.code).toBe(1);
    expect(r.summary.gates.failed).toEqual(['checks']);
    expect(r.summary.gates.checks.failed).toBe(2);
    expect(r.stdout).toMatch(/failed gates: checks/);
  });

  it('a pass_rate threshold covering the items judges their failed checks as a rate', async () => {
    const r = await run(suite({ thresholds: "  pass_rate: ['rate>=0.6']" }));
    expect(r.stdout).toMatch(/ok\s+pass_rate rate>=0.6/);
    expect(r.code).toBe(0);
    expect(r.summary.verdict).toBe('pass');
    expect(r.summary.gates.checks).toMatchObject({ failed: 0, covered: 2 });
    // The same rate, asked more of, fails as a threshold.
    const strict = await run(suite(), '--threshold', 'pass_rate=rate>=0.9');
    expect(strict.code).toBe(1);
    expect(strict.summary.gates.failed).toEqual(['thresholds']);
  });

  it('a scoped pass_rate covers only its scope: the other model\'s failure still fails the checks gate', async () => {
    const r = await run(suite({ thresholds: "  'pass_rate{model:gpt-4o}': ['rate>=0.6']" }));
    expect(r.code).toBe(1);
    expect(r.summary.gates.failed).toEqual(['checks']);
    expect(r.summary.gates.checks).toMatchObject({ failed: 1, covered: 1 });
  });

  it('expect_fail: a known failure is an expected failure, a passing one is reported as unexpectedly passing; neither fails', async () => {
    const r = await run(suite({ wrongCase: 'expect_fail: "the demo knows no swallows (ticket 12)"', rightCase: 'expect_fail: flaky last week' }));
    expect(r.code).toBe(0);
    expect(r.summary.gates.checks).toMatchObject({ failed: 0, expected_failures: 2, unexpected_passes: 2 });
    expect(r.stdout).toMatch(/expected failures 2/);
    expect(r.stdout).toMatch(/unexpectedly passing 2/);
    const lines = readNdjson<Sample>(join(r.out, 'results.ndjson'));
    expect(lines.filter((s) => s.case_id === 'unknown-fact').every((s) => s.expected_failure === 'the demo knows no swallows (ticket 12)' && !s.pass)).toBe(true);
  });

  it('expect_fail in a CSV suite: a column, on a case row or any row of a thread', async () => {
    const path = join(tempDir(), 'known.csv');
    writeFileSync(path, [
      'id,prompt,thread,turn,expected,expect_fail',
      'refund-window,How long do customers have to ask for a refund?,,,30 days,',
      'swallow,What is the airspeed velocity of an unladen swallow?,,,42 furlongs,no such fact in the docs',
      't1,Which plans do you offer?,plans,1,furlongs,',
      't2,How much is the second one?,plans,2,,the thread is known to fail',
    ].join('\n'));
    const r = await run(path, '--board', 'winter-frost-CJk4G', '--chat', 'chatNode-patient-star-4uIJt', '--models', 'gpt-4o-mini');
    expect(r.code).toBe(0);
    expect(r.summary.gates.checks).toMatchObject({ failed: 0, expected_failures: 2 });
    const lines = readNdjson<Sample>(join(r.out, 'results.ndjson'));
    expect(lines.find((s) => s.case_id === 'swallow')?.expected_failure).toBe('no such fact in the docs');
    expect(lines.filter((s) => s.thread_id === 'plans').every((s) => s.expected_failure === 'the thread is known to fail')).toBe(true);
  });

  it('--fail-on picks the gates, for run and report alike', async () => {
    const onlyThresholds = await run(suite(), '--fail-on', 'thresholds');
    expect(onlyThresholds.code).toBe(0);
    expect(onlyThresholds.summary.gates).toMatchObject({ fail_on: ['thresholds'], failed: [] });
    // `report` judges the run's own gates again (run.json), or the ones it is given.
    expect((await runCli(['report', onlyThresholds.out])).code).toBe(0);
    expect((await runCli(['report', onlyThresholds.out, '--fail-on', 'checks'])).code).toBe(1);
    const bad = await runCli(['run', suite(), '--fail-on', 'chekcs']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--fail-on.*unknown "chekcs"/);
  });
});
