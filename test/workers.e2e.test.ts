// --workers N: a run split over N client event loops in worker threads writes the same run as one
// loop (planned starts, item ids, results, outcomes, summary counts), its timeline adds up, a signal
// still leaves interrupted lines and exit 3, and a worker's failure is reported.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import type { TimelineLine } from '../src/domain/timeline.js';
import { readJson, readNdjson, runCli, runCliInProcess, startCountingProxy, startServe, startServiceInProcess, tempDir, type CliResult, type CountingProxy, type ServeHandle } from './helpers.js';
import { startLoadPeer, type LoadPeer } from './load-peer.js';

/** What must not depend on how many loops ran: every count, id and verdict; times are left out. */
function countsOf(value: unknown): unknown {
  // Lists (cases, failures) come in the order results were written: that order is the loops' interleaving.
  if (Array.isArray(value)) return value.map(countsOf).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // A stage's requests and credits are those ended inside its window: when a last answer lands is timing.
    if (key === 'stages') continue;
    if (/(_ms|_per_s|^run_id$|^harness$|^loop_delay|^duration|latency|ttfc|ttfb|gap|inter_chunk|^p\d|^mean$|^max$|^min$|^stddev$|^ci|^p_value$|^diff|^effect|^verdict_note$|^goodput$)/.test(key)) continue;
    kept[key] = countsOf(v);
  }
  return kept;
}

interface RunFiles {
  r: CliResult;
  results: Sample[];
  timeline: TimelineLine[];
  summary: Record<string, unknown>;
  run: { status: string; dropped: number; plan: { starts?: number }; config: { placement: Record<string, unknown> } };
}

function filesOf(out: string, r: CliResult): RunFiles {
  return {
    r,
    results: readNdjson<Sample>(join(out, 'results.ndjson')),
    timeline: readNdjson<TimelineLine>(join(out, 'timeline.ndjson')),
    summary: readJson(join(out, 'summary.json')),
    run: readJson(join(out, 'run.json')),
  };
}

const ids = (f: RunFiles): string[] => f.results.map((s) => s.item_id).sort();
const outcomes = (f: RunFiles): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const s of f.results) counts[s.outcome] = (counts[s.outcome] ?? 0) + 1;
  return counts;
};
/** Result lines (of a run of cases: one per start) within a timeline line's wall-clock second. */
const linesIn = (f: RunFiles, line: TimelineLine): number => f.results.filter((s) => s.offset_ms >= line.offset_ms && s.offset_ms < line.offset_ms + 1000).length;

// The runs are in-process (the worker threads are real): only the signal test needs a process of its
// own to signal. `kbbench serve` in a process of its own: a service in this one would share the
// run's CPU and, on a crowded machine, hold starts back past a second (dropped).
describe('--workers', () => {
  let serve: ServeHandle;
  const dir = tempDir();
  const run = async (name: string, args: string[]): Promise<RunFiles> => {
    const out = join(dir, name);
    const r = await runCliInProcess(['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', out, ...args], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code, r.stderr).toBe(0);
    return filesOf(out, r);
  };
  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0']);
  });
  afterAll(() => serve.stop());

  it('a closed loop over 2 workers sends and records what one loop does', async () => {
    const args = ['--models', 'gpt-4o-mini', '--repeat', '6', '--concurrency', '6'];
    const one = await run('closed-1', [...args, '--workers', '1']);
    const two = await run('closed-2', [...args, '--workers', '2']);
    expect(two.r.stderr).toMatch(/workers: 2 client event loops/);
    expect(one.r.stderr).not.toMatch(/workers: /);
    expect(two.run.config.placement).toMatchObject({ workers: 2 });
    expect(one.run.config.placement).toMatchObject({ workers: 1 });
    expect(two.results.length).toBe(one.results.length);
    expect(two.results.length).toBe(6 * (4 + 3)); // 4 cases and a thread's 3 turns, 6 repeats
    expect(ids(two)).toEqual(ids(one));
    expect(outcomes(two)).toEqual(outcomes(one));
    expect(countsOf(two.summary)).toEqual(countsOf(one.summary));
    const sum = (f: RunFiles, g: (l: TimelineLine) => number): number => f.timeline.reduce((a, l) => a + g(l), 0);
    expect(sum(two, (l) => l.completed)).toBe(two.results.length);
    expect(sum(two, (l) => l.starts)).toBe(6 * 5);
    expect(two.timeline.at(-1)!.in_flight).toBe(0);
  });

  it('an arrival-rate run over 2 workers has the same planned starts, item ids and counts, and its timeline matches its results second by second', async () => {
    // Cases only (the thread left out): one result line per start, recorded at its start's offset.
    // Two seconds, so that the timeline has more than one second to match (20 starts).
    const args = ['--models', 'gpt-4o-mini', '--rate', '10', '--duration', '2s', '--filter', '/^(?!plans$)/'];
    const one = await run('rate-1', [...args, '--workers', '1']);
    const two = await run('rate-2', [...args, '--workers', '2']);
    expect(two.r.stderr).toMatch(/workers: 2 client event loops/);
    expect(two.run.plan.starts).toBe(20);
    expect(two.run.plan.starts).toBe(one.run.plan.starts);
    expect(two.run.dropped).toBe(0);
    expect(ids(two)).toEqual(ids(one));
    expect(outcomes(two)).toEqual(outcomes(one));
    expect(countsOf(two.summary)).toEqual(countsOf(one.summary));
    const sum = (g: (l: TimelineLine) => number): number => two.timeline.reduce((a, l) => a + g(l), 0);
    expect(sum((l) => l.starts)).toBe(20);
    expect(sum((l) => l.completed)).toBe(two.results.length);
    expect(sum((l) => l.passed) + sum((l) => l.failed)).toBe(two.results.length);
    expect(two.results.length).toBe(20);
    for (const line of two.timeline) expect(line.starts, `second ${line.t}`).toBe(linesIn(two, line));
  });

  it('a SIGINT with workers still writes interrupted lines and exits 3', async () => {
    let peer: LoadPeer | undefined;
    try {
      peer = await startLoadPeer(serve.url);
      const out = join(dir, 'sigint');
      let seen = false;
      const r = await runCli(
        ['run', 'test/fixtures/e2e/small.yaml', '--base-url', peer.url, '--out', out, '--models', 'gpt-4o-mini', '--rate', '10', '--duration', '4s',
          '--graceful-stop', '1s', '--retries', '0', '--workers', '2'],
        {
          env: { KBBENCH_API_KEY: serve.key },
          onSpawn: (child) => {
            child.stderr!.on('data', (d: Buffer) => {
              if (seen || !/live: /.test(d.toString())) return;
              seen = true;
              // Freeze the target so requests are in flight, then a signal: they get the graceful stop, then are cut.
              peer!.freeze();
              setTimeout(() => child.kill('SIGINT'), 500);
            });
          },
        },
      );
      expect(r.code, r.stderr).toBe(3);
      const files = filesOf(out, r);
      expect(files.run.status).toBe('interrupted');
      const interrupted = files.results.filter((s) => s.outcome === 'interrupted');
      expect(interrupted.length).toBeGreaterThan(0);
      for (const s of interrupted) expect(s.error?.code).toBe('E_INTERRUPTED');
      // Every request the peer saw has its line: none vanished between the workers and the file.
      const answers = files.results.filter((s) => s.endpoint !== 'create' && s.outcome !== 'skipped');
      expect(answers.length).toBe(peer.arrivals());
    } finally {
      await peer?.stop();
    }
  });

  it('a stop condition met on one worker\'s results stops every worker; nothing is sent unrecorded', async () => {
    const faulty = await startServiceInProcess({ latencyScale: 0, faultRate: 1 });
    let proxy: CountingProxy | undefined;
    try {
      proxy = await startCountingProxy(faulty.url);
      const out = join(dir, 'max-errors');
      const r = await runCliInProcess(
        ['run', 'test/fixtures/e2e/small.yaml', '--base-url', proxy.url, '--out', out, '--models', 'gpt-4o-mini', '--repeat', '40', '--concurrency', '4',
          '--retries', '0', '--max-errors', '5', '--workers', '2'],
        { env: { KBBENCH_API_KEY: faulty.key } },
      );
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/workers: 2 client event loops/);
      const run = readJson<{ status: string; abort: { by: string }; plan: { requests: number } }>(join(out, 'run.json'));
      expect(run.status).toBe('aborted');
      expect(run.abort.by).toBe('max-errors');
      const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
      const sent = samples.filter((s) => s.outcome !== 'skipped');
      expect(proxy.answers()).toBe(sent.length);
      expect(sent.length).toBeGreaterThanOrEqual(5);
      expect(sent.length).toBeLessThan(run.plan.requests / 2);
      expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
    } finally {
      await proxy?.stop();
      await faulty.stop();
    }
  });

  it('a credit budget keeps one worker, and says so', async () => {
    const r = await runCliInProcess(
      ['run', 'test/fixtures/e2e/small.yaml', '--base-url', serve.url, '--out', join(dir, 'budget'), '--models', 'gpt-4o-mini', '--max-credits', '1', '--workers', '2', '--quiet'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/--workers 2: one worker ran, for a credit budget/);
  });
});
