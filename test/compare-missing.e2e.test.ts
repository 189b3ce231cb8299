// compare's `missing` gate (on by default): items the head planned or dropped fail; items outside its plan are "not compared"; added never fail.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readJson, runCliInProcess as runCli, tempDir } from './helpers.js';

/** small.yaml with its workspace made absolute and its cases edited by `edit`. */
function suiteFile(edit: (text: string) => string = (t) => t): string {
  const text = readFileSync(join(ROOT, 'test/fixtures/e2e/small.yaml'), 'utf8')
    .replace('workspace: ../../../suites/demo/workspace.yaml', `workspace: ${join(ROOT, 'suites/demo/workspace.yaml')}`);
  const path = join(tempDir(), 'small.yaml');
  writeFileSync(path, edit(text));
  return path;
}

async function runOf(suite: string, ...flags: string[]): Promise<string> {
  const out = join(tempDir(), 'run');
  const r = await runCli(['run', suite, '--out', out, '--latency-scale', '0', '--seed', '2', ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

interface Cmp { verdict: string; counts: Record<string, number>; missing: { item_id: string }[]; not_compared: { item_id: string; model: string }[]; reasons: string[] }

async function compare(base: string, head: string) {
  const r = await runCli(['compare', base, head]);
  return { ...r, c: readJson<Cmp>(join(head, 'compare.json')) };
}

describe('compare: missing and not compared', () => {
  const suite = suiteFile();

  it('a head run on a --models subset: the other model\'s items are not compared and do not fail', async () => {
    const base = await runOf(suite);
    const head = await runOf(suite, '--models', 'gpt-4o-mini');
    const r = await compare(base, head);
    expect(r.c.counts.missing).toBe(0);
    expect(r.c.counts.not_compared).toBe(7);
    expect(r.c.not_compared.every((i) => i.model === 'gpt-4o')).toBe(true);
    expect(r.stdout).toMatch(/7 not compared/);
    expect(r.code).toBe(0);
  });

  it('items whose cases are gone from the head\'s suite fail as missing by default; added items never fail', async () => {
    const base = await runOf(suite, '--models', 'gpt-4o-mini');
    const fewer = suiteFile((t) => t.replace(/ {2}- id: soc2[\s\S]*?(?= {2}- id: encryption)/, '').replace('  - id: encryption', '  - id: encryption-at-rest'));
    const head = await runOf(fewer, '--models', 'gpt-4o-mini');
    const r = await compare(base, head);
    expect(r.code).toBe(1);
    expect(r.c.verdict).toBe('fail');
    expect(r.c.missing.map((m) => m.item_id).sort()).toEqual(['case:encryption|model:gpt-4o-mini', 'case:soc2|model:gpt-4o-mini']);
    expect(r.c.counts.added).toBe(1);
    expect(r.c.reasons.join(' ')).toMatch(/2 missing items/);
    // The other way round: the renamed case is gone from that suite (missing), the dropped ones come back (added).
    const back = await runCli(['compare', head, base]);
    expect(readJson<Cmp>(join(base, 'compare.json')).counts).toMatchObject({ added: 2, missing: 1 });
    expect(back.code).toBe(1);
    // --fail-on without missing lets it pass.
    expect((await runCli(['compare', base, head, '--fail-on', 'regressions'])).code).toBe(0);
  });

  // Issue 20 item 4: on main both printed "2 matched · 12 missing" and exited 1.
  it('run --filter X --baseline BASE: the cases the filter left out are not compared, not missing', async () => {
    const base = await runOf(suite);
    const out = join(tempDir(), 'head');
    const r = await runCli(['run', suite, '--out', out, '--latency-scale', '0', '--seed', '2', '--filter', 'team-price', '--baseline', base]);
    const c = readJson<Cmp>(join(out, 'compare.json'));
    expect(c.counts).toMatchObject({ matched: 2, missing: 0, not_compared: 12 });
    expect(r.stdout).toMatch(/12 not compared/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // A planned item of the filtered head that has no result is still missing.
    const lines = readFileSync(join(out, 'results.ndjson'), 'utf8').trim().split('\n');
    writeFileSync(join(out, 'results.ndjson'), `${lines.filter((l) => !l.includes('"model":"gpt-4o-mini"')).join('\n')}\n`);
    const again = await compare(base, out);
    expect(again.c.missing.map((m) => m.item_id)).toEqual(['case:team-price|model:gpt-4o-mini']);
    expect(again.code).toBe(1);
  });

  it('run --only-failed BASE --baseline BASE: only the failed cases are compared', async () => {
    const failing = suiteFile((t) => t.replace('contains: 30 days', 'contains: 45 days'));
    const baseOut = join(tempDir(), 'base');
    expect((await runCli(['run', failing, '--out', baseOut, '--latency-scale', '0', '--seed', '2'])).code).toBe(1);
    const out = join(tempDir(), 'head');
    const r = await runCli(['run', suite, '--out', out, '--latency-scale', '0', '--seed', '2', '--only-failed', baseOut, '--baseline', baseOut]);
    const c = readJson<Cmp>(join(out, 'compare.json'));
    expect(c.counts).toMatchObject({ matched: 2, fixes: 2, missing: 0, not_compared: 12 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});
