// Issue 17, "requests on a hung target vanish": a peer that stops answering mid-run, and signals. Every
// answer request the peer received has its result line (answered, or cut at the graceful stop and
// recorded `interrupted`), none more; a signal stop is `interrupted` (exit 3), never a pass.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { Summary } from '../src/domain/summary.js';
import type { TimelineLine } from '../src/domain/timeline.js';
import { readJson, readNdjson, runCli, startServiceInProcess, tempDir, type InProcessService } from './helpers.js';
import { startLoadPeer, type LoadPeer } from './load-peer.js';

const answerLines = (samples: Sample[]): Sample[] => samples.filter((s) => s.endpoint !== 'create' && s.outcome !== 'skipped');

describe('a hung target', () => {
  // The runs are processes of their own (they get signals); the service they reach is in this one.
  let serve: InProcessService;
  let peer: LoadPeer | undefined;
  beforeAll(async () => {
    serve = await startServiceInProcess({ latencyScale: 0 });
  });
  afterAll(async () => {
    await peer?.stop();
    await serve.stop();
  });

  it('requests in flight when the target froze are cut at the graceful stop and recorded interrupted; a signal makes the run interrupted', async () => {
    peer = await startLoadPeer(serve.url);
    const out = join(tempDir(), 'run');
    let frozen = false;
    let signalled = false;
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', peer.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '10', '--duration', '2s',
        '--graceful-stop', '3s', '--retries', '0'],
      {
        env: { KBBENCH_API_KEY: serve.key },
        onSpawn: (child) => {
          // Freeze the target once answers flow; then, once the schedule has ended (every planned start
          // sent or dropped), a SIGINT while the frozen requests wait out the graceful stop.
          const poll = setInterval(() => {
            if (peer!.answers() < 3) return;
            clearInterval(poll);
            frozen = true;
            peer!.freeze();
          }, 20);
          child.once('exit', () => clearInterval(poll));
          child.stderr!.on('data', (d: Buffer) => {
            if (!frozen || signalled || !/live: .*target now 0(\.0)?\/s/.test(d.toString())) return;
            signalled = true;
            child.kill('SIGINT');
          });
        },
      },
    );
    expect(signalled, r.stderr).toBe(true);
    expect(r.code, r.stderr).toBe(3);
    const run = readJson<{ status: string; dropped: number; plan: { starts: number } }>(join(out, 'run.json'));
    expect(run.status).toBe('interrupted');
    // Every planned start is accounted for: a result line (answered, failed, cut; a thread cut while
    // its conversation was being created has an interrupted create line and skipped turns), or dropped.
    const totals = readJson<Summary>(join(out, 'summary.json')).totals;
    expect(totals.starts + run.dropped, JSON.stringify({ starts: totals.starts, dropped: run.dropped, planned: run.plan.starts, late: totals.dropped_late })).toBe(run.plan.starts);
    const samples = answerLines(readNdjson<Sample>(join(out, 'results.ndjson')));
    const interrupted = samples.filter((s) => s.outcome === 'interrupted');
    // What the peer saw is what was recorded: answered requests plus those cut, none vanished.
    expect(samples.length).toBe(peer.arrivals());
    expect(samples.length - interrupted.length).toBe(peer.answers());
    expect(interrupted.length).toBe(peer.arrivals() - peer.answers());
    expect(interrupted.length).toBeGreaterThan(0);
    for (const s of interrupted) {
      expect(s.error?.code).toBe('E_INTERRUPTED');
      // Outstanding from its intended start until the cut: at least the graceful stop's 3 s for those sent before the schedule ended.
      expect(s.corrected_latency_ms!).toBeGreaterThan(0);
    }
    expect(Math.max(...interrupted.map((s) => s.corrected_latency_ms!))).toBeGreaterThanOrEqual(3000);
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.verdict).toBe('incomplete');
    // Counted with the conversations cut while being created (their create lines).
    const cut = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.outcome === 'interrupted');
    expect(summary.totals.interrupted).toBe(cut.length);
    expect(summary.totals.failed_requests_credits.may_be_charged).toBeGreaterThanOrEqual(cut.length);
    expect(r.stdout).toMatch(/interrupted \d+ \(cut at the graceful stop or by a second signal; may have been charged\)/);
    // While they waited, the timeline saw them age: the oldest in flight grew past 3 s.
    const lines = readNdjson<TimelineLine>(join(out, 'timeline.ndjson'));
    expect(Math.max(...lines.map((l) => l.in_flight_oldest_ms ?? 0))).toBeGreaterThanOrEqual(3000);
  });

  it('a second signal cuts the graceful stop short: requests in flight are cancelled at once, recorded interrupted, may have been charged', async () => {
    await peer?.stop();
    peer = await startLoadPeer(serve.url);
    const out = join(tempDir(), 'run');
    let frozen = false;
    let signalled = 0;
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', peer.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '10', '--duration', '20s',
        '--graceful-stop', '10m', '--retries', '0'],
      {
        env: { KBBENCH_API_KEY: serve.key },
        // A graceful stop of 10 minutes: only the second signal can end this run before the test's limit.
        timeoutMs: 90_000,
        onSpawn: (child) => {
          child.stderr!.on('data', (d: Buffer) => {
            const text = d.toString();
            if (!frozen && /live: /.test(text)) {
              frozen = true;
              peer!.freeze();
              // Requests reach the frozen peer and wait; then the first signal, and the second once it is said.
              const poll = setInterval(() => {
                if (peer!.arrivals() - peer!.answers() < 3) return;
                clearInterval(poll);
                signalled = 1;
                child.kill('SIGINT');
              }, 50);
            }
            if (signalled === 1 && /no new requests; those in flight get the graceful stop/.test(text)) {
              signalled = 2;
              child.kill('SIGTERM');
            }
          });
        },
      },
    );
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/SIGTERM: cancelling requests in flight now \(recorded as interrupted/);
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('interrupted');
    const all = readNdjson<Sample>(join(out, 'results.ndjson'));
    const samples = answerLines(all);
    const interrupted = samples.filter((s) => s.outcome === 'interrupted');
    // Nothing the peer received vanished: each request it never answered has its interrupted line.
    expect(samples.length).toBe(peer.arrivals());
    expect(interrupted.length).toBe(peer.arrivals() - peer.answers());
    expect(interrupted.length).toBeGreaterThanOrEqual(3);
    for (const s of interrupted) expect(s.error?.message).toMatch(/a second signal cut the graceful stop short/);
    // Counted as failed requests the service may have charged, as a cut at the graceful stop's end is.
    const summary = readJson<Summary>(join(out, 'summary.json'));
    const cut = all.filter((s) => s.outcome === 'interrupted').length;
    expect(summary.totals.interrupted).toBe(cut);
    expect(summary.totals.failed_requests_credits.may_be_charged).toBeGreaterThanOrEqual(cut);
    expect(summary.verdict).toBe('incomplete');
    expect(r.stdout).toMatch(/may have been charged: \d+/);
  });

  it('an open loop stopped by SIGTERM is interrupted, exit 3, never a completed pass', async () => {
    const out = join(tempDir(), 'run');
    let sent = false;
    const r = await runCli(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '2', '--duration', '8s'],
      {
        env: { KBBENCH_API_KEY: serve.key },
        onSpawn: (child) => {
          child.stderr!.on('data', (d: Buffer) => {
            if (sent || !/live: /.test(d.toString())) return;
            sent = true;
            child.kill('SIGTERM');
          });
        },
      },
    );
    expect(r.code, r.stderr).toBe(3);
    const run = readJson<{ status: string; plan: { starts: number } }>(join(out, 'run.json'));
    expect(run.status).toBe('interrupted');
    const summary = readJson<Summary>(join(out, 'summary.json'));
    expect(summary.verdict).toBe('incomplete');
    expect(summary.totals.starts).toBeLessThan(16);
  });
});
