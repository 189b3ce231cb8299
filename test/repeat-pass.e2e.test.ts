// `repeat_pass: k/n`: a case × model passes when k of its n repeats pass, judged in case stats.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { Summary } from '../src/domain/summary.js';
import { readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/repeat-pass.yaml';

describe('repeat_pass', () => {
  it('makes n repeats and judges each case by k of them', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--latency-scale', '0', '--out', out, '--quiet', '--filter', 'steady']);
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples).toHaveLength(3);
    expect(samples.every((s) => s.repeat_pass === 1)).toBe(true);
  });

  it('passes a case with k of n passed repeats even when others failed', async () => {
    // One fault forced on one repeat of `steady` would be ideal; a 1/3 rule over a case that always
    // passes and a 3/3 rule over one that never does shows both sides of the one judgement.
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--latency-scale', '0', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(1);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    const cell = (id: string) => summary.cases.find((c) => c.case_id === id)!.models['gpt-4o-mini']!;
    expect(cell('steady')).toMatchObject({ requests: 3, passed: 3, repeat_pass: 1 });
    expect(cell('strict')).toMatchObject({ requests: 3, passed: 0, repeat_pass: 3 });
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/tests="2" failures="1"/);
  });

  it('--repeat other than n is an input error', async () => {
    const r = await runCli(['run', SUITE, '--repeat', '2', '--base-url', 'http://127.0.0.1:9'], { env: { KBBENCH_API_KEY: 'k-test-0000' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/repeat_pass needs 3 repeats but --repeat is 2/);
  });
});
