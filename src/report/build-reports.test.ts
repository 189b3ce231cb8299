// Checks buildReports end to end on a synthetic run: every file, a torn tail counted, HTML escaped, console table.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../domain/summary.js';
import { decodeHistogramFile } from '../metrics/histogram-file.js';
import { buildReports } from './build-reports.js';
import { renderConsoleSummary } from './console-summary.js';
import { EVIDENCE_LIMITS } from './evidence.js';
import { SYNTHETIC_MODELS, writeSyntheticRun } from './test-support/synthetic-run.js';

let dir = '';
let summary: Summary;
let files: string[] = [];
let unreadable = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-build-'));
  const { run } = await writeSyntheticRun(dir, { tornTail: true });
  // The thresholds are run.json's (ttfc_ms p(95)<2000), judged in the same pass as the summary.
  const result = await buildReports({ runDir: dir, run });
  ({ summary, files } = result);
  unreadable = result.read.torn_lines;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('buildReports', () => {
  it('writes histograms.json and every report', () => {
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
      'histograms.json', 'summary.json', 'samples.csv', 'summary.csv', 'cases.csv', 'junit.xml', 'report.html',
    ]);
  });

  it('skips the torn last line and says so', () => {
    expect(unreadable).toBe(1);
    expect(summary.totals.unreadable_lines).toBe(1);
    expect(summary.totals.requests + summary.totals.skipped).toBe(54);
  });

  it('writes summary.json in the contract’s shape, thresholds evaluated on it', async () => {
    const json = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as Summary;
    expect(json).toEqual(summary);
    expect(json).toMatchObject({ run_id: 'support-faq-20251122T014300Z', status: 'completed', verdict: 'fail' });
    expect(Object.keys(json.totals)).toEqual(expect.arrayContaining(['requests', 'ok', 'failed', 'pass_rate', 'credits_used', 'dropped']));
    for (const model of SYNTHETIC_MODELS) {
      expect(Object.keys(json.models[model]!.ttfc_ms!)).toEqual(['count', 'p50', 'p90', 'p95', 'p99', 'p999', 'max', 'mean']);
    }
    expect(json.thresholds).toEqual([{ metric: 'ttfc_ms', expression: 'p(95)<2000', scope: {}, value: json.totals.ttfc_ms!.p95, pass: true }]);
    expect(json.cases_truncated).toBeNull();
  });

  it('writes histograms that hold every successful answer', async () => {
    const file = decodeHistogramFile(JSON.parse(await readFile(join(dir, 'histograms.json'), 'utf8')));
    for (const model of SYNTHETIC_MODELS) {
      expect(file.get(model)!.get('latency_ms')!.totalCount).toBe(summary.models[model]!.ok);
    }
  });

  it('escapes answers and prompts in report.html and states its bounds', async () => {
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>markup</b>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain(`${EVIDENCE_LIMITS.answersPerCell} answers per case and model`);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('reports an empty run (stopped before any answer): incomplete, never pass', async () => {
    const empty = join(dir, 'empty');
    const { run } = await writeSyntheticRun(empty, { repeats: 0 });
    const result = await buildReports({ runDir: empty, run: { ...run, status: 'interrupted', duration_ms: null }, thresholds: {} });
    expect(result.files).toHaveLength(7);
    expect(result.summary).toMatchObject({ verdict: 'incomplete', status: 'interrupted', models: {}, cases: [], cases_truncated: null });
    expect(await readFile(join(empty, 'cases.csv'), 'utf8')).toBe('key,label,case_id,thread_id,turn,model,requests,passed,failed,errors,skipped,credits_used,latency_ms_mean,stability\n');
    // run.json's thresholds: a percentile of nothing fails rather than passing vacuously.
    const judged = await buildReports({ runDir: empty, run: { ...run, status: 'interrupted', duration_ms: null }, formats: ['summary-json'] });
    expect(judged.summary).toMatchObject({ verdict: 'incomplete', gates: { failed: ['thresholds'] }, thresholds: [{ metric: 'ttfc_ms', value: null, pass: false }] });
    expect(result.summary.totals).toMatchObject({ requests: 0, pass_rate: null, duration_ms: null, ttfc_ms: null });
    expect(renderConsoleSummary(result.summary)).toContain('requests 0');
  });

  it('renders a plain-text console table per model', () => {
    const text = renderConsoleSummary(summary, { suiteName: 'support-faq' });
    expect(text).toContain('verdict FAIL');
    for (const model of SYNTHETIC_MODELS) expect(text).toMatch(new RegExp(`^${model}\\s+1[78]\\s`, 'm'));
    expect(text).toContain('TTFC p95');
    expect(text).toContain('ok   ttfc_ms p(95)<2000');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/\u001b\[/);
  });
});

describe('missingAnswers', () => {
  it('counts what a completed closed loop planned and has no line for; nothing for other kinds or unfinished runs', async () => {
    const { missingAnswers } = await import('./build-reports.js');
    const run = { status: 'completed', load: { spec: { kind: 'closed', concurrency: 1 } }, plan: { items: 45, requests: 45, threads: 0, models: ['m'] } } as unknown as Parameters<typeof missingAnswers>[0];
    expect(missingAnswers(run, 5)).toBe(40);
    expect(missingAnswers(run, 45)).toBe(0);
    expect(missingAnswers({ ...run, status: 'interrupted' }, 5)).toBe(0);
    expect(missingAnswers({ ...run, load: { spec: { kind: 'arrivals' } } } as typeof run, 5)).toBe(0);
  });
});
