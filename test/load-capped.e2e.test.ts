// Issue 17, "a hidden in-flight cap drops load, and the run passes": a peer that sustains 10 answers a
// second against a run asking for 20 starts a second. Starts the cap held back past 1 s, or never
// sent, are `dropped` (count and rate), a default gate (exit 1) unless a `dropped` threshold allows them.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { Summary } from '../src/domain/summary.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServiceInProcess, tempDir, type InProcessService } from './helpers.js';
import { startLoadPeer, type LoadPeer } from './load-peer.js';

const starts = (samples: Sample[]): Sample[] => samples.filter((s) => s.endpoint !== 'create' && (s.case_id !== null || s.turn === 1));

describe('a capped target', () => {
  let serve: InProcessService;
  let peer: LoadPeer;
  beforeAll(async () => {
    serve = await startServiceInProcess({ latencyScale: 0 });
    peer = await startLoadPeer(serve.url, { capPerS: 10 });
  });
  afterAll(async () => {
    await peer.stop();
    await serve.stop();
  });

  const run = (extra: string[]) => {
    const out = join(tempDir(), 'run');
    return runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', peer.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '20', '--duration', '2s', '--max-in-flight', '4', '--graceful-stop', '5s', ...extra],
      { env: { KBBENCH_API_KEY: serve.key } },
    ).then((r) => ({ r, out }));
  };

  it('counts the starts it did not deliver as dropped, and does not pass', async () => {
    const arrivalsBefore = peer.arrivals();
    const { r, out } = await run([]);
    expect(r.code, r.stderr).toBe(1);
    const info = readJson<{ status: string; dropped: number; plan: { starts: number } }>(join(out, 'run.json'));
    expect(info.status).toBe('completed');
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    const sent = starts(samples);
    // What the peer received is what was recorded (a thread's start sends all its turns).
    expect(peer.arrivals() - arrivalsBefore).toBe(samples.filter((s) => s.endpoint !== 'create' && s.outcome !== 'skipped').length);
    // Every planned start is accounted for: sent, or never sent.
    expect(sent.length + info.dropped).toBe(info.plan.starts);
    const late = sent.filter((s) => (s.scheduled_delay_ms ?? 0) > 1000).length;
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.totals.dropped).toBe(info.dropped + late);
    expect(summary.totals.dropped_late).toBe(late);
    expect(summary.totals.dropped).toBeGreaterThan(0);
    expect(summary.totals.dropped_rate).toBeCloseTo(summary.totals.dropped / info.plan.starts, 3);
    expect(summary.verdict).toBe('fail');
    expect(summary.gates.failed).toContain('dropped');
    expect(r.stdout).toMatch(/failed gates: .*dropped/);
    // The cap is said before the run, and the starts it holds back while it runs.
    expect(r.stderr).toMatch(/at most 4 in flight \(--max-in-flight\)/);
    expect(r.stderr).toMatch(/held back \d+/);
  });

  it('a dropped threshold of the suite judges them instead of the gate', async () => {
    const { r, out } = await run(['--threshold', 'dropped=rate<0.99', '--threshold', 'dropped=count<1000']);
    expect(r.code, r.stderr).toBe(0);
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.totals.dropped).toBeGreaterThan(0);
    expect(summary.gates.failed).toEqual([]);
    expect(summary.thresholds.find((t) => t.expression === 'rate<0.99')).toMatchObject({ metric: 'dropped', pass: true });
    expect(summary.thresholds.find((t) => t.expression === 'count<1000')!.value).toBe(summary.totals.dropped);
  });

  it('says the cap and the graceful stop in --help', async () => {
    const r = await runCli(['run', '--help']);
    expect(r.stdout).toMatch(/--max-in-flight[\s\S]*the larger of --concurrency and 64/);
    expect(r.stdout).toMatch(/--graceful-stop/);
  });
});
