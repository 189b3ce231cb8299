// A threshold scoped to a model, case or thread the run will not contain is an input error (exit 2) before anything is sent.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

describe('thresholds scoped to what the run will not contain', () => {
  it.each([
    [['--models', 'gpt-4o-mini', '--threshold', 'latency_ms{model:gpt-4o}=p(95)<5000'], /latency_ms\{model:gpt-4o\}.*leave "gpt-4o" out/],
    [['--threshold', 'pass_rate{case:refund-windw}=rate>=0.9'], /pass_rate\{case:refund-windw\}.*no case "refund-windw"/],
    [['--threshold', 'ttfc_ms{thread:plan}=p(95)<5000'], /no thread "plan"/],
  ])('%j: exit 2, nothing sent', async (flags, message) => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--out', out, '--latency-scale', '0', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
  });

  it('a scope the run does contain runs as before', async () => {
    const r = await runCli(['run', SUITE, '--out', join(tempDir(), 'run'), '--latency-scale', '0', '--models', 'gpt-4o-mini',
      '--threshold', 'latency_ms{model:gpt-4o-mini}=p(95)<60000', '--threshold', 'pass_rate{case:refund-window}=rate>=0']);
    expect(r.code).toBe(0);
  });
});
