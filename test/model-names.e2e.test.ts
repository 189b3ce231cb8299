// Unknown model names: a known name misspelt is refused before the run (did you mean); a model the service refuses stops being sent after its first answer, and the run stops early naming it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { RunInfo } from '../src/domain/run.js';
import { readJson, readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

describe('model names', () => {
  it('gpt4o: exit 2 before anything is sent, naming the model meant', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--out', out, '--models', 'gpt4o,gpt-4o-mini', '--latency-scale', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown model "gpt4o" \(did you mean "gpt-4o"\?\)/);
    expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
  });

  it('a model the service refuses: its first request fails, the rest are skipped, and the run stops early naming it (exit 3, issue 20 item 3)', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--out', out, '--models', 'gpt-4o-mini,mistral-large', '--concurrency', '1', '--latency-scale', '0']);
    expect(r.stderr).toMatch(/unknown model "mistral-large"/);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/aborted: every request of model mistral-large so far \(3\) was refused the same way \(.*HTTP 400.*\): check the model name \(--models mistral-large\)/);
    expect(readJson<RunInfo>(join(out, 'run.json'))).toMatchObject({ status: 'aborted', abort: { by: 'setup' } });
    const lines = readNdjson<Sample>(join(out, 'results.ndjson'));
    const refused = lines.filter((s) => s.model === 'mistral-large');
    expect(refused.filter((s) => s.outcome === 'http_error').map((s) => s.status)).toEqual([400]);
    for (const s of refused.filter((s) => s.outcome === 'skipped')) expect(s.error?.message).toMatch(/the service refused model "mistral-large"/);
  });
});
