// Unknown model names: a known name misspelt is refused before the run (did you mean); a model the service refuses stops being sent after its first answer.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readNdjson, runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

describe('model names', () => {
  it('gpt4o: exit 2 before anything is sent, naming the model meant', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--out', out, '--models', 'gpt4o,gpt-4o-mini', '--latency-scale', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown model "gpt4o" \(did you mean "gpt-4o"\?\)/);
    expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
  });

  it('a model the service refuses: its first request fails, the rest are skipped with the reason, not sent', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', SUITE, '--out', out, '--models', 'gpt-4o-mini,mistral-large', '--concurrency', '1', '--latency-scale', '0']);
    expect(r.stderr).toMatch(/unknown model "mistral-large"/);
    expect(r.code).toBe(1);
    const lines = readNdjson<Sample>(join(out, 'results.ndjson'));
    const refused = lines.filter((s) => s.model === 'mistral-large');
    expect(refused.filter((s) => s.outcome === 'http_error').map((s) => s.status)).toEqual([400]);
    const skipped = refused.filter((s) => s.outcome === 'skipped');
    expect(skipped).toHaveLength(6);
    for (const s of skipped) expect(s.error?.message).toMatch(/the service refused model "mistral-large"/);
    // The other model ran as usual.
    expect(lines.filter((s) => s.model === 'gpt-4o-mini' && s.outcome === 'ok')).toHaveLength(7);
  });
});
