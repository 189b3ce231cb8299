// compare's `missing` gate (on by default): items the head planned or dropped fail; items outside its plan are "not compared"; added never fail.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readJson, runCli, tempDir } from './helpers.js';

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
});
