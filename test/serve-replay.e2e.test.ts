// `kbbench serve --from-run`: a run recorded against the embedded service, replayed by another
// process, gives a second run the recorded answers byte for byte, their credits and dialect, and a
// question never recorded a 404 the run reports as such. The strict TTFC figure (p50 and p90 within
// 10%) is a wall-clock claim: bench/timing-claims.mjs measures it on an idle machine.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readNdjson, ROOT, runCliInProcess as runCli, startServe, tempDir } from './helpers.js';

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

/** The `npx kbbench` lines of docs/replay.md, comments dropped, split into an env prefix and the arguments. */
function pageLines(): { env: Record<string, string>; args: string[] }[] {
  const page = readFileSync(join(ROOT, 'docs', 'replay.md'), 'utf8');
  return [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.includes('npx kbbench '))
    .map((line) => {
      const words = line.split(/\s+/);
      const at = words.indexOf('npx');
      return { env: Object.fromEntries(words.slice(0, at).map((w) => w.split('=') as [string, string])), args: words.slice(at + 2) };
    });
}

describe('docs/replay.md, its commands in order', () => {
  it('records a run (the embedded demo plays the live service), replays it, and runs a rehearsal and a load rehearsal against it', async () => {
    const dir = tempDir();
    const [record, serveLine, rehearsal, load] = pageLines();
    expect([record, serveLine, rehearsal, load].map((l) => l?.args[0])).toEqual(['run', 'serve', 'run', 'run']);
    const paths: Record<string, string> = { 'suites/support-faq.yaml': 'suites/demo.yaml', 'reports/recorded': join(dir, 'recorded'), 'reports/rehearsal': join(dir, 'rehearsal'), 'reports/load-rehearsal': join(dir, 'load') };
    const local = (args: string[]): string[] => args.map((w) => paths[w] ?? w);
    // The live service, played by the embedded demo: no --base-url, its latencies kept short.
    const live = local(record!.args).filter((w, i, all) => w !== '--base-url' && all[i - 1] !== '--base-url');
    const recorded = await runCli([...live, '--models', 'gpt-4o-mini', '--latency-scale', '0.2', '--quiet']);
    expect(recorded.code, recorded.stderr).toBe(0);
    // startServe picks a free port itself (--port 0) in place of the page's.
    const serve = await startServe(local(serveLine!.args.slice(1)).filter((w, i, all) => w !== '--port' && all[i - 1] !== '--port'));
    try {
      const target = (args: string[]): string[] => local(args).map((w, i, all) => (all[i - 1] === '--base-url' ? serve.url : all[i - 1] === '--duration' ? '2s' : w));
      const r = await runCli([...target(rehearsal!.args), '--models', 'gpt-4o-mini', '--quiet'], { env: rehearsal!.env });
      expect(r.code, r.stderr).toBe(0);
      const texts = (out: string): string[] => readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => s.text).sort();
      expect(texts(join(dir, 'rehearsal'))).toEqual(texts(join(dir, 'recorded')));
      const l = await runCli([...target(load!.args), '--models', 'gpt-4o-mini', '--quiet'], { env: load!.env });
      expect(l.code, l.stderr).toBe(0);
      expect(readNdjson<Sample>(join(dir, 'load', 'results.ndjson')).every((s) => s.outcome === 'ok')).toBe(true);
    } finally {
      await serve.stop();
    }
  });
});
