// `run --baseline` and `compare` end to end: a changed fact fails naming exactly its questions; no change never fails.
// The runs are child processes (each with its embedded service); `compare`, which only reads run
// directories, and the input errors run the CLI in this process.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../src/compare/types.js';
import { demoWorkspaceWithRefundWindowChanged, readJson, runCli, runCliInProcess, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/compare/suite.yaml';
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];
/** Short runs that keep the service's latency noise (log-normal TTFC, jittered chunks). */
const FAST = ['--latency-scale', '0.2', '--quiet'];
const root = tempDir('kbbench-compare-e2e-');
const dir = (name: string): string => join(root, name);

const changedWorkspace = (): string => demoWorkspaceWithRefundWindowChanged(dir('workspace'));

describe('kbbench run --baseline / kbbench compare', () => {
  beforeAll(async () => {
    const base = await runCli(['run', SUITE, '--out', dir('base'), '--seed', '1', ...FAST]);
    expect(base.code, base.stderr).toBe(0);
  });

  it('fails (exit 1) when one fact changes, naming exactly the questions that depend on it', async () => {
    const md = dir('head-changed/pr-comment.md');
    const r = await runCli(['run', SUITE, '--workspace', changedWorkspace(), '--baseline', dir('base'), '--out', dir('head-changed'), '--seed', '1', '--markdown', md, '--latency-scale', '0.2']);
    expect(r.code, r.stderr).toBe(1);
    const c = readJson<Comparison>(dir('head-changed/compare.json'));
    expect(c.verdict).toBe('fail');
    expect(c.regressions.map((x) => x.item_id).sort()).toEqual(MODELS.map((m) => `case:refund-window|model:${m}`));
    expect(c.fixes).toEqual([]);
    expect(c.missing).toEqual([]);
    expect(c.added).toEqual([]);
    // Same seed on both sides: the only answers that changed are the ones that quote the moved fact.
    for (const changed of c.changed) expect(changed.base.text + changed.head.text).toMatch(/30 days|45 days/);
    expect(c.regressions[0]!.diff).toContainEqual({ op: '+', text: '45' });
    expect(c.reasons).toEqual(['3 regressions (pass → fail)']);
    for (const m of MODELS) expect(r.stdout).toContain(`✗ refund-window × ${m}`);
    expect(existsSync(dir('head-changed/compare.html'))).toBe(true);
    expect(readFileSync(md, 'utf8')).toContain('**refund-window × gpt-4o**');
  });

  it('passes (exit 0) on runs with nothing changed, across several pairs and seeds: no false alarm from latency noise', async () => {
    const runs = ['base'];
    for (const seed of [2, 3, 4]) {
      const name = `same-${seed}`;
      const r = await runCli(['run', SUITE, '--baseline', dir(runs[runs.length - 1]!), '--out', dir(name), '--seed', String(seed), ...FAST]);
      const c = readJson<Comparison>(dir(`${name}/compare.json`));
      expect(r.code, `seed ${seed}: ${c.reasons.join('; ')}`).toBe(0);
      runs.push(name);
    }
    // Every other pairing of the four runs, through `kbbench compare` (no new requests needed).
    const pairs = runs.flatMap((a, i) => runs.slice(i + 2).map((b) => [a, b] as const));
    for (const [a, b] of pairs) {
      const r = await runCliInProcess(['compare', dir(a), dir(b), '--out', dir(`cmp-${a}-${b}`)]);
      expect(r.code, `${a} vs ${b}: ${r.stdout}`).toBe(0);
      expect(r.stdout).toContain('compare: PASS');
    }
  });

  it('compare: --json prints compare.json, --fail-on picks the gates, the reverse direction shows fixes', async () => {
    const r = await runCliInProcess(['compare', dir('head-changed'), dir('base'), '--out', dir('cmp-reverse'), '--json', '--fail-on', 'regressions']);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as Comparison;
    expect(c.fixes.map((x) => x.item_id).sort()).toEqual(MODELS.map((m) => `case:refund-window|model:${m}`));
    expect(r.stderr).toContain('compare: PASS');
    const changed = await runCliInProcess(['compare', dir('head-changed'), dir('base'), '--out', dir('cmp-changed'), '--fail-on', 'changed']);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('failed on: 3 changed answers');
  });

  it('exits 2 naming a directory that is not a run, before sending anything', async () => {
    const empty = dir('empty');
    mkdirSync(empty);
    const c = await runCliInProcess(['compare', dir('base'), empty]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`${empty} has no run.json and no results.ndjson`);
    const bad = await runCliInProcess(['compare', dir('base'), dir('base'), '--latency-tolerance', '10']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--latency-tolerance');
    const out = dir('never-written');
    const run = await runCliInProcess(['run', SUITE, '--baseline', empty, '--out', out, ...FAST]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--baseline');
    expect(existsSync(out)).toBe(false);
  });
});
