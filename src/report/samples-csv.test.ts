// Checks samples.csv: a round trip through csv-parse keeps texts with commas, quotes and newlines intact.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import type { RequestStats } from '../domain/summary.js';
import { flattenChecks, SAMPLES_CSV_COLUMNS, samplesCsvWriter } from './samples-csv.js';
import { renderSummaryCsv } from './summary-csv.js';
import { syntheticSamples } from './test-support/synthetic-run.js';
import type { ReportInput } from './types.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-csv-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tricky = [
  'plain',
  'a, b, and c',
  'she said "hello", then left',
  'line one\nline two\r\nline three',
  '"starts with a quote',
  '',
  ' leading and trailing spaces ',
  'ünïcödé ✓ 漢字',
];

const STATS: RequestStats = {
  requests: 2, ok: 2, errors: 0, skipped: 0, passed: 2, failed: 0, not_judged: 0, pass_rate: 1, errors_by_kind: {}, retries: 0, chars: 10,
  answer_credits_used: 0.5, grader_credits_used: 0, grader_tokens: 0,
  chars_per_s: 100, credits_used: 0.5, check_credits_used: 0, credits_unknown: 0, failed_requests_credits: { may_be_charged: 0, not_charged: 0 }, credits_per_request: 0.25, credits_per_passed: 0.25,
  credits_remaining: 9, ttfc_ms: { count: 2, p50: 1, p90: 2, p95: 2, p99: 2, p999: 2, max: 2, mean: 1.5 }, latency_ms: null,
  ttfb_ms: null, gap_max_ms: null, corrected_latency_ms: null,
};

async function* iterate(samples: Sample[]): AsyncGenerator<Sample> {
  yield* samples;
}

describe('samples.csv', () => {
  it('round-trips every row, answer texts included', async () => {
    const base = syntheticSamples({ repeats: 1 });
    const samples = base.map((s, i) => ({ ...s, text: tricky[i % tricky.length]!, prompt: `${tricky[(i + 3) % tricky.length]}?` }));
    const input = { runDir: dir, samples: () => iterate(samples) } as unknown as ReportInput;
    const path = await samplesCsvWriter.write(input);
    const rows = parse(await readFile(path, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual(SAMPLES_CSV_COLUMNS);
    expect(rows).toHaveLength(samples.length);
    rows.forEach((row, i) => {
      const s = samples[i]!;
      expect(row.text).toBe(s.text);
      expect(row.prompt).toBe(s.prompt);
      expect(row.item_id).toBe(s.item_id);
      expect(row.model).toBe(s.model);
      expect(row.pass).toBe(String(s.pass));
      expect(row.checks).toBe(flattenChecks(s.checks));
      expect(row.latency_ms === '' ? null : Number(row.latency_ms)).toBe(s.latency_ms);
      expect(row.error_code).toBe(s.error?.code ?? '');
    });
  });

  it('names the run a reused answer was taken from (reused_from), empty for an answer asked in this run', async () => {
    const [asked, taken] = syntheticSamples({ repeats: 1 });
    const input = { runDir: dir, samples: () => iterate([asked!, { ...taken!, credits_used: 0, reused_from: 'run-nightly', credits_saved: 0.2 }]) } as unknown as ReportInput;
    const rows = parse(await readFile(await samplesCsvWriter.write(input), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(SAMPLES_CSV_COLUMNS.indexOf('reused_from')).toBe(SAMPLES_CSV_COLUMNS.indexOf('credits_unknown') + 1);
    expect(rows.map((r) => [r.reused_from, r.credits_used])).toEqual([['', String(asked!.credits_used ?? '')], ['run-nightly', '0']]);
  });

  it('neutralises text cells a spreadsheet would run as formulas, leaving numbers alone', async () => {
    const base = syntheticSamples({ repeats: 1 })[0]!;
    const evil = { ...base, text: '=HYPERLINK("http://evil","refund")', prompt: '@SUM(1+1)', case_id: '+cmd', offset_ms: -3 };
    const list = { ...base, text: '- first\n- second', prompt: '\t=1+1', case_id: 'plain=ok' };
    const input = { runDir: dir, samples: () => iterate([evil, list]) } as unknown as ReportInput;
    const rows = parse(await readFile(await samplesCsvWriter.write(input), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.text, r.prompt, r.case_id, r.offset_ms])).toEqual([
      ['\'=HYPERLINK("http://evil","refund")', "'@SUM(1+1)", "'+cmd", '-3'],
      ["'- first\n- second", "'\t=1+1", 'plain=ok', String(base.offset_ms)],
    ]);
    const summary = parse(renderSummaryCsv({ '=evil()': { ...STATS } }), { columns: true }) as Array<Record<string, string>>;
    expect(summary[0]?.model).toBe("'=evil()");
  });

  it('flattens checks into one readable line each', () => {
    expect(flattenChecks([{ type: 'contains', pass: true, detail: 'found "30 days"' }, { type: 'regex', pass: false, detail: 'no match' }]))
      .toBe('PASS contains: found "30 days"\nFAIL regex: no match');
  });
});

describe('summary.csv', () => {
  it('has one row per model, parseable', () => {
    const csv = renderSummaryCsv({ 'model, "quoted"': STATS });
    const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'model, "quoted"', requests: '2', ttfc_ms_p95: '2', latency_ms_p50: '', credits_per_request: '0.25000' });
  });
});
