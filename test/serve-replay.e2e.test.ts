// `kbbench serve --from-run`: a run recorded against the embedded service, replayed by another
// process, gives a second run the recorded answers byte for byte, their credits and dialect, and a
// question never recorded a 404 the run reports as such. The strict TTFC figure (p50 and p90 within
// 10%) is a wall-clock claim: bench/timing-claims.mjs measures it on an idle machine.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readNdjson, runCliInProcess as runCli, startServe, tempDir } from './helpers.js';

const REPLAY_KEY = 'kb-replay-0000-local';
const keyOf = (s: Sample): string => `${s.model}|${s.prompt ?? ''}|${s.repeat}`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

describe('serve --from-run', () => {
  const dir = tempDir();
  const recorded = join(dir, 'recorded');
  let samples: Sample[] = [];
  beforeAll(async () => {
    const r = await runCli(['run', 'suites/demo.yaml', '--models', 'gpt-4o,gpt-4o-mini', '--seed', '11', '--out', recorded, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    samples = readNdjson<Sample>(join(recorded, 'results.ndjson'));
  }, 120_000);

  it('a run against the replay reproduces the recorded answers byte for byte, with their credits and stream dialect, and never answers sooner than recorded', async () => {
    const serve = await startServe(['--from-run', recorded]);
    try {
      expect(serve.key).toBe(REPLAY_KEY);
      const out = join(dir, 'replayed');
      const r = await runCli(['run', 'suites/demo.yaml', '--models', 'gpt-4o,gpt-4o-mini', '--base-url', serve.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: REPLAY_KEY } });
      expect(r.code, r.stderr).toBe(0);
      const replayed = readNdjson<Sample>(join(out, 'results.ndjson'));
      expect(replayed).toHaveLength(samples.length);
      const byKey = new Map(samples.map((s) => [keyOf(s), s]));
      for (const s of replayed) {
        const original = byKey.get(keyOf(s));
        expect(s.text).toBe(original?.text);
        expect([s.credits_used, s.stream_dialect, s.outcome]).toEqual([original?.credits_used, original?.stream_dialect, 'ok']);
      }
      // One-sided, so a busy machine cannot flap it: the replay waits each recorded first-chunk time, then some.
      for (const model of ['gpt-4o', 'gpt-4o-mini']) {
        const ttfc = (list: Sample[]): number[] => list.filter((s) => s.model === model).map((s) => s.ttfc_ms!);
        expect(percentile(ttfc(replayed), 0.5)).toBeGreaterThanOrEqual(percentile(ttfc(samples), 0.5) * 0.99);
      }
    } finally {
      await serve.stop();
    }
  });

  it('a question the run never recorded gets a 404 that the run reports as such; --workspace with --from-run is exit 2', async () => {
    const suite = join(dir, 'extra.yaml');
    writeFileSync(suite, `name: extra
target: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }
models: [gpt-4o]
cases:
  - id: refund-window
    prompt: How long do customers have to ask for a refund?
  - id: unrecorded
    prompt: Does Cobalt Desk run on the Moon?
`);
    const serve = await startServe(['--from-run', recorded, '--latency-scale', '0']);
    try {
      const out = join(dir, 'extra');
      const r = await runCli(['run', suite, '--base-url', serve.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: REPLAY_KEY } });
      expect(r.code).toBe(1);
      const byCase = new Map(readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => [s.case_id, s]));
      expect(byCase.get('refund-window')!.outcome).toBe('ok');
      const missing = byCase.get('unrecorded')!;
      expect([missing.status, missing.outcome, missing.error?.code]).toEqual([404, 'http_error', 'E_NOT_FOUND']);
      expect(missing.error?.message).toContain('No recorded answer: run');
    } finally {
      await serve.stop();
    }
    const both = await runCli(['serve', '--port', '0', '--from-run', recorded, '--workspace', 'suites/demo/workspace.yaml']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --workspace or --from-run, not both');
    const notRun = await runCli(['serve', '--port', '0', '--from-run', dir]);
    expect(notRun.code).toBe(2);
    expect(notRun.stderr).toContain('not a run directory');
  });
});
