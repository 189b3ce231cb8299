// `similar` and `judge` checks end to end: the judge is a chat of the service, its credits counted.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

describe('checks that survive rewording', () => {
  it('passes a similar answer and a judged one, fails a judged wrong fact, counts the judge credits', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/graded.yaml', '--latency-scale', '0', '--out', out, '--quiet']);
    expect(r.code).toBe(1);
    const byCase = new Map(readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => [s.case_id, s]));
    const good = byCase.get('refund-window')!;
    expect(good.pass).toBe(true);
    expect(good.checks.map((c) => c.type)).toEqual(['similar', 'judge']);
    expect(good.checks[0]!.detail).toMatch(/similarity 0\.\d+/);
    const wrong = byCase.get('refund-wrong')!;
    expect(wrong.pass).toBe(false);
    expect(wrong.checks[0]!.detail).toMatch(/FAIL/);
    const judgeCredits = [good, wrong].reduce((a, s) => a + s.checks.reduce((b, c) => b + (c.credits_used ?? 0), 0), 0);
    expect(judgeCredits).toBeGreaterThan(0);
    const summary = readJson<{ totals: { credits_used: number } }>(join(out, 'summary.json'));
    const answerCredits = (good.credits_used ?? 0) + (wrong.credits_used ?? 0);
    expect(summary.totals.credits_used).toBeCloseTo(answerCredits + judgeCredits, 5);
  });
});
