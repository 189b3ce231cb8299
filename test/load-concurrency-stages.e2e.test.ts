// Issue 17, item 7: `--concurrency-stages` says sensible things. Not "10 requests" then
// `progress: 1925/10` and a log line per request, but its load in the header and the live line,
// its stages in run.json, the per-stage table (a request in the stage it started in) and the knee.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { Summary } from '../src/domain/summary.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServiceInProcess, tempDir, type CliResult, type InProcessService } from './helpers.js';
import { startLoadPeer, type LoadPeer } from './load-peer.js';

// One run serves both tests (what the console says, and what the files hold): a ramp of workers
// past a capped service, long enough for the knee's two baseline windows of 5 s and one judged.
describe('--concurrency-stages on the console', () => {
  let serve: InProcessService;
  let peer: LoadPeer;
  const out = join(tempDir(), 'run');
  const stages = '2s:1,8s:1,6s:10';
  let r: CliResult;
  beforeAll(async () => {
    serve = await startServiceInProcess({ latencyScale: 0 });
    // A service that sustains 10 answers a second: one worker waits at most one tick; ten queue.
    peer = await startLoadPeer(serve.url, { capPerS: 10 });
    r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', peer.url, '--out', out, '--models', 'gpt-4o-mini', '--concurrency-stages', stages],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
  });
  afterAll(async () => {
    await peer.stop();
    await serve.stop();
  });

  it('the header names the ramp, the live line the workers asked for, and no progress line per request', () => {
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    // Many passes through the 5-unit plan: far more results than the plan's requests.
    expect(samples.length).toBeGreaterThan(20);
    expect(r.stderr).toMatch(/load: --concurrency-stages: 3 stages of workers from 0 \(2s→1, 8s→1, 6s→10\), up to 10 workers over 16s/);
    expect(r.stderr).not.toMatch(/\d+ requests against/);
    expect(r.stderr).toMatch(/live: \d+s · workers now \d+ · last \d+s: achieved [\d.]+\/s, (corrected )?p95 .*, TTFC p95 .* · in flight \d+/);
    const progress = r.stderr.split('\n').filter((l) => l.startsWith('progress:'));
    expect(progress.length).toBeLessThanOrEqual(2);
    expect(progress.every((l) => !/(\d+)\/(\d+) done/.test(l) || Number(/(\d+)\//.exec(l)![1]) <= Number(/\/(\d+)/.exec(l)![1]))).toBe(true);
  });

  it('records its worker stages, puts each request in the stage it started in, and finds the knee as workers pass capacity', async () => {
    expect(r.code, r.stderr).toBe(0);
    const info = readJson<{ load: { spec: { kind: string }; stages: Array<{ from_rate: number; to_rate: number; target_unit?: string; end_ms: number }>; max_in_flight: number } }>(join(out, 'run.json'));
    expect(info.load.spec.kind).toBe('ramping-workers');
    expect(info.load.stages.map((s) => [s.from_rate, s.to_rate, s.target_unit, s.end_ms])).toEqual([[0, 1, 'workers', 2000], [1, 1, 'workers', 10_000], [1, 10, 'workers', 16_000]]);
    expect(info.load.max_in_flight).toBe(10);

    const summary = readJson<Summary>(join(out, 'summary.json'));
    const table = summary.stages!;
    expect(table.map((s) => [s.from_rate, s.to_rate, s.target_unit])).toEqual([[0, 1, 'workers'], [1, 1, 'workers'], [1, 10, 'workers']]);
    // A request belongs to the stage in which it started, whenever it finished (answers still
    // running when the last stage ended count in the last stage, and so do the later turns of a
    // thread started in it: nothing else starts after the stages end).
    const sent = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.outcome !== 'skipped');
    const startedIn = (i: number): number => sent.filter((s) => s.offset_ms >= table[i]!.start_ms && (s.offset_ms < table[i]!.end_ms || i === table.length - 1)).length;
    expect(table.map((s) => s.requests)).toEqual(table.map((_, i) => startedIn(i)));
    expect(table.reduce((a, s) => a + s.requests, 0)).toBe(sent.length);
    // Output throughput per stage: the answer characters of its requests over its seconds (every stage ran whole).
    const chars = sent.filter((s) => s.outcome === 'ok').reduce((a, s) => a + s.chars, 0);
    const fromTable = table.reduce((a, s) => a + s.output_chars_per_s! * ((s.end_ms - s.start_ms) / 1000), 0);
    expect(Math.abs(fromTable - chars)).toBeLessThanOrEqual(0.05 * 16);
    expect(table.every((s) => s.inter_chunk_ms !== null && s.inter_chunk_ms !== undefined)).toBe(true);
    expect(r.stdout).toMatch(/itl p95 ms +chars\/s +credits\/min/);
    // Ten workers against a 10/s service queue: latency grows with the workers, and the knee says so.
    expect(summary.knee, JSON.stringify(table)).not.toBeNull();
    expect(summary.knee!.workers).toBeGreaterThanOrEqual(2);
    expect(r.stdout).toMatch(/stage +workers +starts/);
    expect(r.stdout).toMatch(/\n3 ?◆? +1→10 /);
    expect(r.stdout).toMatch(/knee ◆ at [\d.]+ starts\/s \(\d+ workers\)/);

    // `kbbench report` reads the stages back; a run.json written before they were recorded (spec only) too.
    const again = await runCli(['report', out, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Summary).stages!.map((s) => s.requests)).toEqual(table.map((s) => s.requests));
    const runJson = join(out, 'run.json');
    const raw = JSON.parse(readFileSync(runJson, 'utf8')) as { load: Record<string, unknown> };
    writeFileSync(runJson, JSON.stringify({ ...raw, load: { spec: raw.load.spec } }));
    const old = await runCli(['report', out, '--json']);
    expect(old.code, old.stderr).toBe(0);
    expect((JSON.parse(old.stdout) as Summary).stages!.map((s) => [s.to_rate, s.target_unit, s.requests])).toEqual(table.map((s) => [s.to_rate, 'workers', s.requests]));
  });
});
