// `kbbench report` of a run that did not finish lists its unsent items in junit.xml: a --filter run's
// unselected cases were never planned, so they are not "unsent" (on main: 12 skipped testcases for 2 planned items).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';

describe('report of an unfinished --filter run', () => {
  it('counts as unsent only what the filter planned', async () => {
    const dir = tempDir();
    const suite = join(dir, 'small.yaml');
    writeFileSync(suite, readFileSync(join(ROOT, 'test/fixtures/e2e/small.yaml'), 'utf8').replace('../../../suites/demo/workspace.yaml', join(ROOT, 'suites/demo/workspace.yaml')));
    const out = join(dir, 'run');
    expect((await runCli(['run', suite, '--filter', 'team-price', '--out', out, '--latency-scale', '0', '--quiet'])).code).toBe(0);
    // As if the run had been stopped after its last answer: one planned item unsent.
    const results = readFileSync(join(out, 'results.ndjson'), 'utf8').trim().split('\n');
    writeFileSync(join(out, 'results.ndjson'), `${results.slice(0, -1).join('\n')}\n`);
    const runJson = join(out, 'run.json');
    writeFileSync(runJson, readFileSync(runJson, 'utf8').replace('"status": "completed"', '"status": "interrupted"'));
    const r = await runCli(['report', out]);
    expect(r.code).toBe(3);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8').match(/<skipped/g)).toHaveLength(1);
  });
});
