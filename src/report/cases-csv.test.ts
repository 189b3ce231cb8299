// cases.csv: its columns, one row per case × model grouped by model, formula-safe text, mean latency per request.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { createSummarizer } from '../metrics/summarizer.js';
import { CASES_CSV_COLUMNS, casesCsvLines } from './cases-csv.js';
import { syntheticSamples } from './test-support/synthetic-run.js';

async function csvOf(samples: Sample[]): Promise<Array<Record<string, string>>> {
  const summarizer = createSummarizer();
  for (const s of samples) summarizer.add(s);
  const { cases } = summarizer.finish({ run_id: 'r', status: 'completed', model_order: ['mistral-large'] });
  let text = '';
  for await (const line of casesCsvLines(cases)) text += line;
  return parse(text, { columns: true }) as Array<Record<string, string>>;
}

describe('cases.csv', () => {
  it('has a row per case × model, model by model in report order, cases in run order', async () => {
    const rows = await csvOf(syntheticSamples({ repeats: 3 }));
    expect(Object.keys(rows[0]!)).toEqual([...CASES_CSV_COLUMNS]);
    expect(rows).toHaveLength(18);
    expect(rows.slice(0, 6).map((r) => [r.model, r.label])).toEqual([
      ['mistral-large', 'refund-window'], ['mistral-large', 'shipping-times'], ['mistral-large', 'escaping'],
      ['mistral-large', 'onboarding turn 1'], ['mistral-large', 'onboarding turn 2'], ['mistral-large', 'onboarding turn 3'],
    ]);
    expect(rows.find((r) => r.model === 'gpt-4o-mini' && r.key === 'case:refund-window')).toMatchObject({ case_id: 'refund-window', thread_id: '', turn: '', requests: '3', passed: '0', failed: '3', errors: '0' });
    expect(rows.find((r) => r.model === 'mistral-large' && r.key === 'thread:onboarding#3')).toMatchObject({ thread_id: 'onboarding', turn: '3', requests: '2', skipped: '1' });
  });

  it('keeps a case id a spreadsheet would run as a formula as text, and gives the mean latency', async () => {
    const base = syntheticSamples({ repeats: 1 })[0]!;
    const rows = await csvOf([{ ...base, case_id: '=HYPERLINK("x")', latency_ms: 100 }, { ...base, case_id: '=HYPERLINK("x")', latency_ms: 200.5 }]);
    expect(rows[0]).toMatchObject({ key: 'case:=HYPERLINK("x")', case_id: "'=HYPERLINK(\"x\")", label: "'=HYPERLINK(\"x\")", latency_ms_mean: '150.25' });
  });
});
