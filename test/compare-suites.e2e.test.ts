// Issue 20 item 6: compare of two unrelated suites (another name, another knowledge base, a few ids in
// common) is refused, exit 2 naming both, unless --allow-different-suites; run --baseline refuses before sending.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, readJson, runCliInProcess as runCli, tempDir } from './helpers.js';

function suiteFile(name: string, edit: (text: string) => string = (t) => t): string {
  const text = readFileSync(join(ROOT, 'test/fixtures/e2e/small.yaml'), 'utf8')
    .replace('workspace: ../../../suites/demo/workspace.yaml', `workspace: ${join(ROOT, 'suites/demo/workspace.yaml')}`);
  const path = join(tempDir(), `${name}.yaml`);
  writeFileSync(path, edit(text));
  return path;
}

describe('compare of unrelated suites (issue 20 item 6)', () => {
  const small = suiteFile('small');
  // Another knowledge base's suite: its own name, one id in common (refund-window), the rest its own.
  const other = suiteFile('lockers', (t) => t.replace('name: small', 'name: parcel-lockers').replace('id: team-price', 'id: locker-sizes').replace('id: soc2', 'id: pickup-window').replace('id: plans', 'id: returns'));
  let base = '';
  let head = '';
  beforeAll(async () => {
    base = join(tempDir(), 'base');
    head = join(tempDir(), 'head');
    for (const [suite, out] of [[small, base], [other, head]] as const) {
      const r = await runCli(['run', suite, '--out', out, '--latency-scale', '0', '--seed', '2', '--models', 'gpt-4o-mini', '--quiet']);
      expect(r.code, r.stderr).toBe(0);
    }
  });

  it('compare refuses (exit 2) naming both suites and writes nothing', async () => {
    const r = await runCli(['compare', base, head]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"small"');
    expect(r.stderr).toContain('"parcel-lockers"');
    expect(r.stderr).toContain('--allow-different-suites');
    expect(existsSync(join(head, 'compare.json'))).toBe(false);
  });

  it('--allow-different-suites compares them, with a warning', async () => {
    const r = await runCli(['compare', base, head, '--allow-different-suites']);
    expect([0, 1]).toContain(r.code);
    const c = readJson<{ warnings: string[] }>(join(head, 'compare.json'));
    expect(c.warnings.join(' ')).toMatch(/suite "small" against suite "parcel-lockers"/);
  });

  it('run --baseline of another suite is refused before anything is sent', async () => {
    const out = join(tempDir(), 'refused');
    const r = await runCli(['run', other, '--out', out, '--latency-scale', '0', '--baseline', base]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"small".*"parcel-lockers"/s);
    expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
  });
});
