import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { sample } from '../test-support/fixtures.js';
import { createLoadTrend } from './load-trend.js';
import { createSummarizer } from './summarizer.js';

const stages = [
  { index: 0, from_rate: 2, to_rate: 2, start_ms: 0, end_ms: 10_000 },
  { index: 1, from_rate: 8, to_rate: 8, start_ms: 10_000, end_ms: 20_000 },
];
const at = (offsetMs: number, spec: Parameters<typeof sample>[0], repeat: number): Sample => ({ ...sample({ ...spec, repeat }), offset_ms: offsetMs });

/** `caseId` answered `low` times at 2/s (all passing) and `high` times at 8/s, `passHigh` of them passing. */
function answers(caseId: string, low: number, high: number, passHigh: number, outcome?: Sample['outcome']): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < low; i++) out.push(at(100 + i, { caseId }, out.length + 1));
  for (let i = 0; i < high; i++) out.push(at(10_100 + i, { caseId, pass: i < passHigh, ...(outcome && i >= passHigh ? { outcome } : {}) }, out.length + 1));
  return out;
}

describe('degrades_under_load: a question whose pass rate falls with the offered load', () => {
  it('calls the degrading question, not the steady one nor the one whose failures are errors; Holm over the questions', () => {
    const trend = createLoadTrend(stages)!;
    for (const s of [...answers('slips', 5, 15, 2), ...answers('steady', 5, 15, 15), ...answers('refused', 5, 15, 2, 'http_error')]) trend.add(s);
    const result = trend.finish()!;
    expect(result.list.shown.map((q) => q.label)).toEqual(['slips']);
    const slips = result.list.shown[0]!;
    expect(slips.levels).toEqual([{ level: 0, target_rate: 2, passed: 5, judged: 5 }, { level: 1, target_rate: 8, passed: 2, judged: 15 }]);
    expect(slips.p_adjusted).toBeGreaterThanOrEqual(slips.p_value);
    expect(slips.p_adjusted).toBeLessThan(0.05);
    // `refused`'s high-load failures are errors: its answers (5/5, then 2/2) did not get worse.
    expect(result.list.tested).toBe(3);
    // Miller: per question, repeats averaged, then the mean over questions: 1 at 2/s; (2/15 + 1 + 1) / 3 at 8/s.
    expect(result.list.pass_rate_by_level).toEqual([
      { model: 'gpt-4o', level: 0, target_rate: 2, questions: 3, pass_rate: 1 },
      { model: 'gpt-4o', level: 1, target_rate: 8, questions: 3, pass_rate: 0.7111 },
    ]);
  });

  it('one offered load has no trend to test', () => {
    expect(createLoadTrend([stages[0]!])).toBeNull();
    expect(createLoadTrend([stages[0]!, { ...stages[1]!, from_rate: 2, to_rate: 2 }])).toBeNull();
  });

  it('in summary.json: its own class, never flaky, and its cells say so', () => {
    const summarizer = createSummarizer({ loadStages: stages });
    // `wavers` passes every other repeat at both loads: flaky, not degrading.
    const wavers = Array.from({ length: 20 }, (_, i) => at(i < 10 ? 100 + i : 10_100 + i, { caseId: 'wavers', pass: i % 2 === 0 }, i + 1));
    for (const s of [...answers('slips', 5, 15, 2), ...wavers]) summarizer.add(s);
    const { summary } = summarizer.finish({ run_id: 'r', status: 'completed' });
    expect(summary.degrades_under_load!.shown.map((q) => q.key)).toEqual(['case:slips']);
    expect(summary.flaky!.shown.map((f) => f.key)).toEqual(['case:wavers']);
    expect(summary.cases.find((c) => c.key === 'case:slips')!.models['gpt-4o']!.stability).toBe('degrades_under_load');
    expect(summary.degrades_under_load!.method).toMatch(/Cochran–Armitage/);
  });
});
