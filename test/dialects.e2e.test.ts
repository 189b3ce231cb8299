// Every stream dialect, ragged writes and CRLF: the texts a run records equal the JSON answers, byte for byte.
// Each service is `kbbench serve` (its --dialect, --split-writes and --crlf flags) run in this process.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { STREAM_DIALECTS } from '../src/protocol/index.js';
import { readNdjson, runCliInProcess as runCli, startServeInProcess, tempDir, type InProcessServe } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

async function runAgainst(serve: { url: string; key: string }, extra: string[]): Promise<Map<string, Sample>> {
  const out = join(tempDir(), 'run');
  const r = await runCli(['run', SUITE, '--base-url', serve.url, '--out', out, '--models', 'gpt-4o', '--quiet', ...extra], { env: { KBBENCH_API_KEY: serve.key } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return new Map(readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => [s.item_id, s]));
}

describe('stream dialects end to end', () => {
  let reference: Map<string, Sample>;
  let jsonServe: InProcessServe;

  beforeAll(async () => {
    jsonServe = await startServeInProcess(['--latency-scale', '0', '--seed', '5']);
    reference = await runAgainst(jsonServe, ['--no-stream']);
    expect([...reference.values()].every((s) => !s.streaming && s.text.length > 0)).toBe(true);
  });
  afterAll(() => jsonServe.stop());

  const variants = STREAM_DIALECTS.flatMap((d) => [
    { dialect: d, flags: [] as string[] },
    { dialect: d, flags: ['--split-writes', '--crlf'] },
  ]);

  it.each(variants)('$dialect $flags: texts equal the JSON answers', async ({ dialect, flags }) => {
    const serve = await startServeInProcess(['--latency-scale', '0', '--seed', '5', '--dialect', dialect, ...flags]);
    try {
      const streamed = await runAgainst(serve, ['--stream']);
      expect(streamed.size).toBe(reference.size);
      for (const [id, sample] of streamed) {
        expect(sample.stream_dialect, id).toBe(dialect);
        expect(sample.text, id).toBe(reference.get(id)!.text);
        expect(sample.chunks).toBeGreaterThan(dialect === 'text' ? 0 : 1);
        // The plain-text dialect carries no usage chunk: credits unknown, and said so.
        expect(sample.credits_unknown).toBe(dialect === 'text');
      }
    } finally {
      await serve.stop();
    }
  });
});
