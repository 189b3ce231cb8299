import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildHistory } from './build.js';

let root = '';

interface Outcome {
  key: string;
  passed: number;
  requests?: number;
  stability?: string;
}

/** A run directory as kbbench writes it, cut to what history reads. */
function writeRun(dir: string, i: number, outcomes: Outcome[], extra: { suite?: string; summary?: Record<string, unknown>; model?: Record<string, unknown> } = {}): void {
  mkdirSync(dir, { recursive: true });
  const passed = outcomes.reduce((s, o) => s + o.passed, 0);
  const requests = outcomes.reduce((s, o) => s + (o.requests ?? 1), 0);
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ run_id: `run-${i}`, suite: { name: extra.suite ?? 'faq' }, started_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), status: 'completed', label: `day ${i}` }));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({
    run_id: `run-${i}`, status: 'completed', verdict: 'pass',
    models: { m: { requests, ok: requests, errors: 0, passed, pass_rate: passed / requests, credits_used: 1, ttfc_ms: { p50: 100, p95: 200 }, latency_ms: { p50: 300, p95: 400 }, ...extra.model } },
    cases: outcomes.map((o) => ({ key: o.key, label: o.key, ...(o.stability ? { stability: o.stability } : {}), models: { m: { requests: o.requests ?? 1, passed: o.passed } } })),
    cases_truncated: null,
    ...extra.summary,
  }));
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kbbench-history-unit-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const options = () => ({ outDir: join(root, 'out'), toolVersion: 'test' });

describe('buildHistory', () => {
  it("lists a person's label that changed from the last run that labelled the answer (labels.csv)", async () => {
    const header = 'id,question,answer,reference,rubric,type,human,note,item_id,check_id,grader,labelled_at\n';
    const label = (item: string, human: string) => `${item}#answer,q,a,,,,${human},,${item},answer,pass,t\n`;
    for (const [i, human] of [[1, 'pass'], [2, ''], [3, 'fail']] as const) {
      const dir = join(root, `r${i}`);
      writeRun(dir, i, [{ key: 'case:a', passed: 1 }]);
      if (human) writeFileSync(join(dir, 'labels.csv'), header + label('case:a|model:m|r1', human));
    }
    const json = await buildHistory([root], options());
    expect(json.label_changes).toEqual([{ suite: 'faq', item_id: 'case:a|model:m|r1', run_id: 'run-3', from: 'pass', to: 'fail' }]);
  });

  it('tells a flaky question (back and forth) from a regressed and a fixed one', async () => {
    const pattern: Record<string, number[]> = { 'case:flaky': [1, 0, 1, 0], 'case:broke': [1, 1, 0, 0], 'case:fixed': [0, 0, 1, 1], 'case:steady': [1, 1, 1, 1] };
    for (let i = 0; i < 4; i++) writeRun(join(root, 'runs', `r${i}`), i, Object.entries(pattern).map(([key, v]) => ({ key, passed: v[i]! })));
    const history = await buildHistory([join(root, 'runs')], options());
    const kinds = Object.fromEntries(history.flips.map((f) => [f.item, f.kind]));
    expect(kinds).toEqual({ 'case:broke': 'regressed', 'case:fixed': 'fixed', 'case:flaky': 'flaky' });
    expect(history.flips.find((f) => f.item === 'case:flaky')!.runs).toEqual([
      { run_id: 'run-1', passed: false }, { run_id: 'run-2', passed: true }, { run_id: 'run-3', passed: false },
    ]);
    expect(history.flaky).toEqual([{ suite: 'faq', model: 'm', item: 'case:flaky', flips: 3 }]);
  });

  it("calls flaky a question whose repeats disagreed within a run (summary.json's stability)", async () => {
    writeRun(join(root, 'r0'), 0, [{ key: 'case:a', passed: 2, requests: 3, stability: 'flaky' }]);
    writeRun(join(root, 'r1'), 1, [{ key: 'case:a', passed: 2, requests: 3, stability: 'flaky' }]);
    const history = await buildHistory([root], options());
    expect(history.flaky.map((f) => f.item)).toEqual(['case:a']);
  });

  it("reads the stability of a model's cell, leaves not-judged requests out and honours repeat_pass", async () => {
    for (let i = 0; i < 2; i++) {
      writeRun(join(root, `r${i}`), i, [], {
        summary: {
          cases: [
            { key: 'case:cell', label: 'cell', models: { m: { requests: 3, passed: 2, stability: 'flaky' } } },
            { key: 'case:judged', label: 'judged', models: { m: { requests: 3, passed: 2, not_judged: 1 } } },
            { key: 'case:k-of-n', label: 'k', models: { m: { requests: 3, passed: i === 0 ? 2 : 1, repeat_pass: 2 } } },
          ],
        },
      });
    }
    const history = await buildHistory([root], options());
    expect(history.flaky.map((f) => f.item)).toEqual(['case:cell']);
    // Two of two judged passed: no flip. Two of three with repeat_pass 2, then one: it regressed.
    expect(history.flips.filter((f) => f.kind !== 'flaky').map((f) => [f.item, f.kind])).toEqual([['case:k-of-n', 'regressed']]);
  });

  it('finds runs at any depth, never opens results.ndjson, skips a run without summary.json', async () => {
    writeRun(join(root, 'a', 'b', 'c', 'r0'), 0, [{ key: 'case:a', passed: 1 }]);
    writeRun(join(root, 'a', 'r1'), 1, [{ key: 'case:a', passed: 1 }]);
    // A named pipe with no writer: whoever opened it to read would wait forever.
    execFileSync('mkfifo', [join(root, 'a', 'r1', 'results.ndjson')]);
    mkdirSync(join(root, 'killed'));
    writeFileSync(join(root, 'killed', 'run.json'), JSON.stringify({ run_id: 'k', started_at: '2026-01-09T00:00:00Z', status: 'running' }));
    const history = await buildHistory([root], options());
    expect(history.runs.map((r) => r.run_id)).toEqual(['run-0', 'run-1']);
    expect(history.skipped).toHaveLength(1);
    expect(history.skipped[0]!.reason).toContain('no summary.json');
  });

  it('keeps one suite with --suite, and says so when none is left', async () => {
    writeRun(join(root, 'r0'), 0, [{ key: 'case:a', passed: 1 }], { suite: 'faq' });
    writeRun(join(root, 'r1'), 1, [{ key: 'case:a', passed: 1 }], { suite: 'billing' });
    expect((await buildHistory([root], { ...options(), suite: 'billing' })).runs.map((r) => r.suite)).toEqual(['billing']);
    await expect(buildHistory([root], { ...options(), suite: 'nope' })).rejects.toThrow(/no run of suite "nope"/);
  });

  it("takes summary.json's pass_rate_ci95 when present, else Wilson over the questions", async () => {
    writeRun(join(root, 'r0'), 0, [{ key: 'case:a', passed: 1 }, { key: 'case:b', passed: 0 }], { model: { pass_rate_ci95: [0.1, 0.9] } });
    writeRun(join(root, 'r1'), 1, [{ key: 'case:a', passed: 1 }, { key: 'case:b', passed: 0 }]);
    const history = await buildHistory([root], options());
    const points = history.series.find((s) => s.metric === 'pass_rate')!.points;
    expect(points[0]!.ci95).toEqual([0.1, 0.9]);
    expect(points[1]!.ci95![0]).toBeGreaterThan(0.05);
    expect(points[1]!.ci95![1]).toBeLessThan(0.95);
  });

  it('reads cases.csv when summary.json kept only the worst questions', async () => {
    for (let i = 0; i < 2; i++) {
      const dir = join(root, `r${i}`);
      writeRun(dir, i, [], { summary: { cases_truncated: { distinct: 2, kept: 0, file: 'cases.csv' } } });
      writeFileSync(join(dir, 'cases.csv'), `key,label,case_id,thread_id,turn,model,requests,passed,failed,errors,skipped,credits_used,latency_ms_mean\ncase:a,a,a,,,m,1,${1 - i},${i},0,0,0.1,10\n`);
    }
    const history = await buildHistory([root], options());
    expect(history.flips).toEqual([{ suite: 'faq', model: 'm', item: 'case:a', runs: [{ run_id: 'run-1', passed: false }], kind: 'regressed' }]);
  });
});
