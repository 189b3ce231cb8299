// --resume with another suite: exit 2 and nothing sent, naming both; --allow-changed-suite continues an edited file of the same suite.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { ROOT, readJson, readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

/** small.yaml, copied where it can be edited (its workspace made absolute). */
function copySuite(name = 'small', extraCase = ''): string {
  const text = readFileSync(join(ROOT, 'test/fixtures/e2e/small.yaml'), 'utf8')
    .replace('workspace: ../../../suites/demo/workspace.yaml', `workspace: ${join(ROOT, 'suites/demo/workspace.yaml')}`)
    .replace('name: small', `name: ${name}`)
    .replace('cases:\n', `cases:\n${extraCase}`);
  const path = join(tempDir(), `${name}.yaml`);
  writeFileSync(path, text);
  return path;
}

const EXTRA = '  - id: sso\n    prompt: Does the Team plan include single sign-on?\n';

describe('--resume and the suite', () => {
  it('another suite: exit 2, nothing sent, both suites named by path and hash; the allowing flag does not allow another suite', async () => {
    const support = copySuite();
    const out = join(tempDir(), 'run');
    expect((await runCli(['run', support, '--out', out, '--models', 'gpt-4o-mini', '--latency-scale', '0'])).code).toBe(0);
    const before = readFileSync(join(out, 'results.ndjson'), 'utf8');
    const run = readJson<{ suite: { sha256: string } }>(join(out, 'run.json'));

    const faq = join(ROOT, 'suites/demo.csv');
    const r = await runCli(['run', faq, '--resume', out, '--latency-scale', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(support);
    expect(r.stderr).toContain(run.suite.sha256.slice(0, 12));
    expect(r.stderr).toContain(faq);
    expect(r.stderr).toMatch(/--allow-changed-suite/);
    expect(readFileSync(join(out, 'results.ndjson'), 'utf8')).toBe(before);
    expect(readJson<{ suite: { sha256: string } }>(join(out, 'run.json')).suite.sha256).toBe(run.suite.sha256);

    const other = await runCli(['run', copySuite('faq', EXTRA), '--resume', out, '--allow-changed-suite', '--latency-scale', '0']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/another suite/);
    expect(readFileSync(join(out, 'results.ndjson'), 'utf8')).toBe(before);
  });

  it('--allow-changed-suite: an edited file of the same suite sends only the new plan\'s unfinished items', async () => {
    const path = copySuite();
    const out = join(tempDir(), 'run');
    expect((await runCli(['run', path, '--out', out, '--models', 'gpt-4o-mini', '--latency-scale', '0'])).code).toBe(0);
    const before = readNdjson<Sample>(join(out, 'results.ndjson'));
    writeFileSync(path, readFileSync(copySuite('small', EXTRA), 'utf8'));
    const r = await runCli(['run', path, '--resume', out, '--allow-changed-suite', '--latency-scale', '0']);
    expect(r.stderr).toMatch(/suite file changed/);
    expect(r.code).toBe(0);
    const after = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((s) => s.item_id)).toEqual(['case:sso|model:gpt-4o-mini|r1']);
  });
});
