// A suite's grader: { min_kappa, labels }: a grader that agrees with people gates its checks; one that does not
// is reported but does not gate, and the verdict says why. Labels that cannot be read are exit 2, nothing sent.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers.js';

const HEADER = 'id,question,answer,reference,rubric,type,human,note,item_id,check_id,grader,labelled_at';
const row = (i: number, human: string, grader: string) => `a${i}#1:judge,q,a,,r,llm-rubric,${human},,a${i},1:judge,${grader},2026-11-28T00:00:00Z`;
const labels = (pairs: [string, string][]) => `${[HEADER, ...pairs.map(([h, g], i) => row(i, h, g))].join('\n')}\n`;

function suiteDir(labelsFile: string): string {
  const dir = tempDir('kbbench-gate-');
  for (const name of ['workspace.yaml', 'docs']) cpSync(join(ROOT, 'suites/parcel-lockers', name), join(dir, name), { recursive: true });
  writeFileSync(join(dir, 'calibrated.csv'), labels([['pass', 'pass'], ['pass', 'pass'], ['fail', 'fail'], ['fail', 'fail'], ['pass', 'pass']]));
  writeFileSync(join(dir, 'uncalibrated.csv'), labels([['pass', 'fail'], ['fail', 'pass'], ['pass', 'pass'], ['fail', 'fail'], ['pass', 'fail']]));
  // The grader fails this answer: the rubric asks for words the documents do not hold.
  writeFileSync(join(dir, 'suite.yaml'), `name: gate
workspace: workspace.yaml
target: { board_id: boxly-help, chat_id: chatNode-locker-helper }
models: [gpt-4o-mini]
grader: { chat_id: chatNode-locker-grader, model: gpt-4o-mini, min_kappa: 0.6, min_labels: 4, labels: ${labelsFile} }
cases:
  - id: pickup-window
    prompt: How long do I have to collect my parcel?
    assert:
      - contains: 72 hours
      - llm-rubric: 'The answer must mention "fourteen days".'
`);
  return dir;
}

describe('grader: { min_kappa, labels }', () => {
  it('gates on a calibrated grader: its failed check fails the run', async () => {
    const dir = suiteDir('calibrated.csv');
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'run')], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('judge checks gate: kappa 1.00 ≥ 0.6 over 5 labels');
    const summary = JSON.parse(readFileSync(join(dir, 'run', 'summary.json'), 'utf8')) as { verdict: string; grader_calibration: { types: Record<string, { gating: boolean }> } };
    expect(summary.verdict).toBe('fail');
    expect(summary.grader_calibration.types.judge?.gating).toBe(true);
  });

  it('does not gate on an uncalibrated grader, and the verdict says why', async () => {
    const dir = suiteDir('uncalibrated.csv');
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'run')], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/verdict PASS · not gating: judge \(kappa -0\.15 < 0\.6 over 5 labels\)/);
    const results = readFileSync(join(dir, 'run', 'results.ndjson'), 'utf8');
    // The grader's verdict stays in results.ndjson; reports leave it out of the gate.
    expect(results).toContain('"pass":false');
    const html = readFileSync(join(dir, 'run', 'report.html'), 'utf8');
    expect(html).toContain('id="calibration-table"');
    expect(html).toContain('reported, not gating');
  });

  it('refuses labels it cannot read, before sending anything (exit 2)', async () => {
    const dir = suiteDir('missing.csv');
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'run')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing.csv');
    expect(r.stderr).toContain('cannot read the labels');
  });
});
