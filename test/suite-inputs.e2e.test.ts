// Suite input that used to be taken silently (issue 9): promptfoo check names in a CSV, labels
// that are not check types, and the CLI's own version.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readNdjson, runCli, tempDir } from './helpers.js';

const TARGET = ['--board', 'winter-frost-CJk4G', '--chat', 'chatNode-patient-star-4uIJt'];

describe('CSV check cells', () => {
  it("runs promptfoo's negated and list checks, and keeps `Answer: yes` an expected answer", async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/promptfoo-checks.csv', ...TARGET, '--latency-scale', '0', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(1); // `Answer: yes` is an equals check, and the answer is not "Answer: yes"
    const byCase = new Map(readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => [s.case_id, s]));
    expect(byCase.get('refund-window')!.checks.map((c) => [c.type, c.pass])).toEqual([['not-icontains', true], ['contains-any', true]]);
    expect(byCase.get('team-price')!.checks.map((c) => [c.type, c.pass])).toEqual([['equals', false], ['icontains-all', true]]);
    expect(byCase.get('team-price')!.checks[0]!.detail).toMatch(/expected to equal "Answer: yes"/);
  });
});
