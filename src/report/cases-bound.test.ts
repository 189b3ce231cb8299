// A run with 25,000 distinct cases: summary.json keeps the worst, cases.csv and junit.xml hold every row, memory stays bounded.
import { parse } from 'csv-parse/sync';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import type { Summary } from '../domain/summary.js';
import { MAX_CASES_IN_SUMMARY, WORST_CASES_KEPT } from '../metrics/case-stats.js';
import { buildReports } from './build-reports.js';
import { CASES_CSV_COLUMNS } from './cases-csv.js';
import { MAX_MATRIX_ROWS } from './html/matrix-bound.js';
import { syntheticRunInfo, syntheticSamples } from './test-support/synthetic-run.js';
import { parseXml } from './test-support/xml.js';

const DISTINCT = 25_000;
const MODELS = ['gpt-4o-mini', 'mistral-large'];

/** Case i fails its check on mistral-large when i % 1000 === 7 (25 cases), and is slowest at i === 24_999. */
function manyCases(): Sample[] {
  const base = syntheticSamples({ repeats: 1 })[0]!;
  const samples: Sample[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    for (const model of MODELS) {
      const failing = model === 'mistral-large' && i % 1000 === 7;
      samples.push({
        ...base, item_id: `case:q-${i}|model:${model}|r1`, case_id: `q-${i}`, model, offset_ms: samples.length, prompt: `question ${i}`,
        text: `answer ${i}`, latency_ms: i === 24_999 ? 9000 : 100 + (i % 10), pass: !failing,
        checks: [{ type: 'contains', pass: !failing, detail: failing ? 'missing' : 'found' }], credits_used: 0.001,
      });
    }
  }
  return samples;
}

let dir = '';
let summary: Summary;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-cases-'));
  const run = { ...syntheticRunInfo(dir), plan: { items: DISTINCT, requests: DISTINCT * 2, threads: 0, models: MODELS } };
  await writeFile(join(dir, 'run.json'), JSON.stringify(run));
  await writeFile(join(dir, 'results.ndjson'), manyCases().map((s) => JSON.stringify(s)).join('\n') + '\n');
  ({ summary } = await buildReports({ runDir: dir, run, formats: ['summary-json', 'cases-csv', 'junit', 'html'] }));
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a run past the in-memory case limit', () => {
  it('keeps the worst cases in summary.json, in run order, and says so', async () => {
    expect(DISTINCT).toBeGreaterThan(MAX_CASES_IN_SUMMARY);
    expect(summary.cases.length).toBe(WORST_CASES_KEPT);
    expect(summary.cases_truncated).toEqual({ distinct: DISTINCT, kept: WORST_CASES_KEPT, file: 'cases.csv' });
    const keys = summary.cases.map((c) => c.key);
    // Every failing case and the slowest one are among the kept; the list reads in run order.
    for (let i = 7; i < DISTINCT; i += 1000) expect(keys).toContain(`case:q-${i}`);
    expect(keys).toContain('case:q-24999');
    const order = keys.map((k) => Number(k.slice('case:q-'.length)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const json = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as Summary;
    expect(json.cases_truncated).toEqual(summary.cases_truncated);
    expect(summary.totals.requests).toBe(DISTINCT * 2);
  });

  it('writes every case × model row to cases.csv', async () => {
    const rows = parse(await readFile(join(dir, 'cases.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual(CASES_CSV_COLUMNS);
    expect(rows).toHaveLength(DISTINCT * MODELS.length);
    expect(new Set(rows.map((r) => `${r.key}|${r.model}`)).size).toBe(DISTINCT * MODELS.length);
    expect(rows.filter((r) => r.failed === '1').map((r) => r.case_id).sort()).toEqual(Array.from({ length: 25 }, (_, k) => `q-${k * 1000 + 7}`).sort());
    const slow = rows.find((r) => r.key === 'case:q-24999' && r.model === 'gpt-4o-mini')!;
    expect(slow).toMatchObject({ label: 'q-24999', case_id: 'q-24999', thread_id: '', turn: '', requests: '1', passed: '1', credits_used: '0.00100', latency_ms_mean: '9000' });
  });

  it('streams a valid junit.xml with a testcase per case × model', async () => {
    const tree = parseXml(await readFile(join(dir, 'junit.xml'), 'utf8'));
    expect(tree.attrs).toMatchObject({ tests: String(DISTINCT * 2), failures: '25', errors: '0', skipped: '0' });
    expect(tree.children.map((s) => s.children.length)).toEqual([DISTINCT, DISTINCT]);
    const failures = tree.children[1]!.children.filter((c) => c.children.some((x) => x.name === 'failure'));
    expect(failures).toHaveLength(25);
  });

  it('bounds report.html’s matrix and leaves no temporary files', async () => {
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    // Case rows, not the totals row of the table's foot.
    const caseRows = (html.match(/<th scope="row">(?!Passed requests)/g) ?? []).length;
    expect(caseRows).toBeGreaterThan(0);
    expect(caseRows).toBeLessThanOrEqual(MAX_MATRIX_ROWS);
    expect(html).toContain(`of ${DISTINCT.toLocaleString('en-US')} cases and turns`);
    // A failing case far past the first 500 still has its answers kept: evidence admits problems too.
    expect(html).toContain('answer 24007');
    expect((await readdir(dir)).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
