// Suite tags end to end: YAML and CSV tags, per-tag figures in summary.json, junit.xml and
// report.html, `{tag:…}` thresholds, and an unknown tag refused before anything is sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { Summary } from '../src/domain/summary.js';
import { readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

describe('tags', () => {
  it('gives pass rate, latency and credits per tag, and judges {tag:…} thresholds', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/tagged.yaml', '--latency-scale', '0', '--out', out, '--quiet', '--threshold', 'pass_rate{tag:billing}=rate>=0.9']);
    expect(r.code, r.stderr).toBe(1); // team-price expects €99: billing passes 1 of 2
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.find((s) => s.case_id === 'team-price')?.tags).toEqual(['billing', 'pricing']);
    expect(samples.filter((s) => s.thread_id === 'plans').every((s) => s.tags?.[0] === 'pricing')).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(Object.keys(summary.tags ?? {})).toEqual(['billing', 'pricing', 'security']);
    expect(summary.tags!.billing!.requests).toBe(2);
    expect(summary.tags!.billing!.pass_rate).toBe(0.5);
    expect(summary.tags!.pricing!.requests).toBe(3);
    expect(summary.tags!.security!.latency_ms?.p95).toBeGreaterThan(0);
    expect(summary.tags!.security!.credits_used).toBeGreaterThan(0);
    expect(summary.thresholds.map((t) => [t.metric, t.value, t.pass])).toEqual([
      ['pass_rate{tag:security}', 1, true],
      ['pass_rate{tag:billing}', 0.5, false],
    ]);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="tag:billing.pass_rate" value="0.5"/>');
    expect(junit).toMatch(/<property name="tag:security.credits_used" value="0\.\d+"\/>/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/<section id="tags"[\s\S]*<th scope="row">billing<\/th><td class="num">2<\/td>/);
  });

  it('reads a CSV tags column (;-separated)', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/tagged.csv', '--workspace', 'suites/demo/workspace.yaml', '--latency-scale', '0', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(Object.keys(summary.tags ?? {})).toEqual(['billing', 'security', 'support']);
  });

  it('a threshold naming a tag no case has exits 2 before anything is sent', async () => {
    const r = await runCli(['run', 'test/fixtures/e2e/tagged.yaml', '--threshold', 'pass_rate{tag:biling}=rate>=0.9', '--base-url', 'http://127.0.0.1:9'], {
      env: { KBBENCH_API_KEY: 'k-test-0000' },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/names tag "biling" \(did you mean "billing"\?\), which no case or thread has/);
  });
});

describe('selecting what runs', () => {
  it('--filter by id glob, tag or /regex/ runs only what matches', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/tagged.yaml', '--latency-scale', '0', '--out', out, '--quiet', '--filter', 'refund-*', '--filter', 'tag:security', '--filter', '/^pla/']);
    expect(r.code, r.stderr).toBe(0);
    const ran = readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => s.case_id ?? s.thread_id);
    expect(new Set(ran)).toEqual(new Set(['refund-window', 'encryption', 'plans']));
    const none = await runCli(['run', 'test/fixtures/e2e/tagged.yaml', '--filter', 'nothing-*', '--base-url', 'http://127.0.0.1:9'], { env: { KBBENCH_API_KEY: 'k-test-0000' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--filter nothing-\* selects no case or thread/);
  });

  it('--only-failed RUN_DIR runs again only what failed there', async () => {
    const first = join(tempDir(), 'first');
    expect((await runCli(['run', 'test/fixtures/e2e/tagged.yaml', '--latency-scale', '0', '--out', first, '--quiet'])).code).toBe(1);
    const again = join(tempDir(), 'again');
    const r = await runCli(['run', 'test/fixtures/e2e/tagged.yaml', '--latency-scale', '0', '--out', again, '--quiet', '--only-failed', first]);
    expect(r.code, r.stderr).toBe(1);
    expect(readNdjson<Sample>(join(again, 'results.ndjson')).map((s) => s.case_id)).toEqual(['team-price']);
  });
});
