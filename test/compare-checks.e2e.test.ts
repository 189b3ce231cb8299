// compare per check (issue 19 item 7): a document's "30 days" becomes "45 days"; the item already failed another
// check, and the check that newly fails is a regression named with the check in the console, compare.json and compare.html.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readJson, runCliInProcess as runCli, tempDir } from './helpers.js';

interface Cmp { verdict: string; counts: Record<string, number>; regressions: { item_id: string; newly_failed_checks: { check: number; type: string; detail: string }[] }[] }

describe('a check that newly fails on an item that already failed (issue 19 item 7)', () => {
  it('is a regression, named with the check', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'suites/demo'), join(dir, 'demo'), { recursive: true });
    const suite = join(dir, 'refunds.yaml');
    writeFileSync(suite, [
      'name: refunds',
      `workspace: ${join(dir, 'demo/workspace.yaml')}`,
      'target: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }',
      'models: [gpt-4o, gpt-4o-mini]',
      'cases:',
      '  - id: refund-window',
      '    prompt: How long do customers have to ask for a refund?',
      '    assert:',
      '      - contains: 30 days',
      '      - contains: a phrase no answer has',
      '',
    ].join('\n'));
    const run = async (out: string) => (await runCli(['run', suite, '--out', out, '--latency-scale', '0', '--seed', '2', '--quiet'])).code;
    const base = join(dir, 'base');
    const head = join(dir, 'head');
    expect(await run(base)).toBe(1);
    const doc = join(dir, 'demo/docs/refunds.md');
    writeFileSync(doc, readFileSync(doc, 'utf8').replaceAll('30 days', '45 days'));
    expect(await run(head)).toBe(1);

    const r = await runCli(['compare', base, head]);
    const c = readJson<Cmp>(join(head, 'compare.json'));
    expect(c.regressions.map((x) => x.item_id).sort()).toEqual(['case:refund-window|model:gpt-4o', 'case:refund-window|model:gpt-4o-mini']);
    for (const x of c.regressions) expect(x.newly_failed_checks).toEqual([{ check: 1, type: 'contains', detail: expect.stringContaining('expected to contain "30 days"') }]);
    expect(r.stdout).toContain('✗ refund-window × gpt-4o: check 1 (contains) newly fails: expected to contain "30 days"');
    expect(readFileSync(join(head, 'compare.html'), 'utf8')).toContain('check 1 (contains) newly fails: expected to contain &quot;30 days&quot;');
    expect(c.verdict).toBe('fail');
    expect(r.code).toBe(1);
  });
});
