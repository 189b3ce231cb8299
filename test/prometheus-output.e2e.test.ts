// --output prometheus-rw against a real Prometheus (remote-write receiver on): the run's seconds
// arrive while it runs, the counters add up to the results, the TTFC quantiles are timeline.ndjson's
// to the millisecond, two shards are one picture by the `shard` label, and a dead or hung endpoint
// costs the run nothing but dropped batches, which it reports. One Prometheus for the file; the runs
// in this process, one after the other, against one `kbbench serve` (time-scaled 0.2) in its own.
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunInfo } from '../src/domain/run.js';
import type { Sample } from '../src/domain/sample.js';
import type { Summary } from '../src/domain/summary.js';
import type { TimelineLine } from '../src/domain/timeline.js';
import { readJson, readNdjson, runCliInProcess, startServe, tempDir, type CliResult, type ServeHandle } from './helpers.js';
import { freePort, hasPrometheus, PROMETHEUS_BIN, startPrometheus, type PromMatrix, type PrometheusHandle, type PromVector } from './prometheus-support.js';

if (!hasPrometheus) {
  console.warn(`prometheus-output.e2e.test.ts skipped: ${PROMETHEUS_BIN} does not exist (install Debian's prometheus package, as .ci/run does, to run it).`);
}

const SUITE = 'test/fixtures/e2e/small.yaml';
const LOAD = ['--models', 'gpt-4o-mini', '--rate', '4', '--duration', '4s', '--seed', '7'];
/** For the dead and hung endpoints: the hung one alone holds the run's stop up to its deadline (5 s). */
const SHORT_LOAD = ['--models', 'gpt-4o-mini', '--rate', '4', '--duration', '2s', '--seed', '7'];

let serve: ServeHandle | undefined;
beforeAll(async () => {
  serve = await startServe(['--latency-scale', '0.2', '--seed', '7']);
});
afterAll(() => serve?.stop());
/** `kbbench run` in this process against the service. */
const runCli = (args: string[]): Promise<CliResult> => runCliInProcess([...args, '--base-url', serve!.url], { env: { KBBENCH_API_KEY: serve!.key } });

const total = (v: PromVector): number => v.reduce((a, s) => a + Number(s.value[1]), 0);

describe.skipIf(!hasPrometheus)('--output prometheus-rw into a real Prometheus', () => {
  let prom: PrometheusHandle;
  const root = tempDir();
  const out = join(root, 'run');
  let result: CliResult;
  /** What Prometheus held while the run's process was still running. */
  let duringStarts = 0;
  let duringWhileRunning = false;

  beforeAll(async () => {
    prom = await startPrometheus();
    let running = true;
    const run = runCli(['run', SUITE, ...LOAD, '--out', out, '--output', `prometheus-rw=${prom.writeUrl}`]).finally(() => {
      running = false;
    });
    // Asked during the run: the seconds already closed are there.
    while (running && duringStarts === 0) {
      await new Promise((r) => setTimeout(r, 250));
      const starts = total(await prom.query<PromVector>('sum(kbbench_starts_total{suite="small"})'));
      if (starts > 0 && running) {
        duringStarts = starts;
        duringWhileRunning = true;
      }
    }
    result = await run;
  }, 120_000);
  afterAll(() => prom?.stop());

  it('has the run\'s metrics while it runs', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(duringWhileRunning).toBe(true);
    expect(duringStarts).toBeGreaterThan(0);
    console.info(`prometheus during the run: sum(kbbench_starts_total) = ${duringStarts}`);
  });

  it('sums kbbench_requests_total to the run\'s result count, by model and outcome, with the run\'s labels', async () => {
    const run = readJson<RunInfo>(join(out, 'run.json'));
    const results = readNdjson<Sample>(join(out, 'results.ndjson'));
    const requests = await prom.query<PromVector>(`kbbench_requests_total{run_id="${run.run_id}"}`);
    expect(total(requests)).toBe(results.length);
    for (const series of requests) expect(series.metric).toMatchObject({ run_id: run.run_id, suite: 'small', shard: '1/1', model: 'gpt-4o-mini' });
    const ok = requests.find((s) => s.metric.outcome === 'ok');
    expect(Number(ok?.value[1])).toBe(results.filter((s) => s.outcome === 'ok').length);
    const lines = readNdjson<TimelineLine>(join(out, 'timeline.ndjson'));
    const sum = (f: (l: TimelineLine) => number): number => lines.reduce((a, l) => a + f(l), 0);
    expect(total(await prom.query<PromVector>(`kbbench_starts_total{run_id="${run.run_id}"}`))).toBe(sum((l) => l.starts));
    expect(total(await prom.query<PromVector>(`kbbench_dropped_starts_total{run_id="${run.run_id}"}`))).toBe(sum((l) => l.dropped));
    const credits = total(await prom.query<PromVector>(`kbbench_credits_used_total{run_id="${run.run_id}"}`));
    expect(credits).toBeCloseTo(readJson<Summary>(join(out, 'summary.json')).totals.credits_used, 5);
    expect(await prom.query<PromVector>(`kbbench_in_flight{run_id="${run.run_id}"}`)).toHaveLength(1);
    console.info(`prometheus after the run: sum(kbbench_requests_total) = ${total(requests)}, results.ndjson lines = ${results.length}; credits ${credits}`);
  });

  it('holds each second\'s TTFC and latency quantiles as timeline.ndjson has them, to the millisecond', async () => {
    const lines = readNdjson<TimelineLine>(join(out, 'timeline.ndjson'));
    const byT = new Map(lines.map((l) => [l.t, l]));
    let compared = 0;
    for (const [metric, field] of [['kbbench_ttfc_seconds', 'ttfc_ms'], ['kbbench_latency_seconds', 'latency_ms'], ['kbbench_corrected_latency_seconds', 'corrected_latency_ms']] as const) {
      const matrix = await prom.query<PromMatrix>(`${metric}{suite="small",shard="1/1"}[1h]`);
      expect(matrix.length, metric).toBe(3);
      for (const series of matrix) {
        const key = ({ '0.5': 'p50', '0.95': 'p95', '0.99': 'p99' } as const)[series.metric.quantile as '0.5' | '0.95' | '0.99'];
        for (const [ts, value] of series.values) {
          const line = byT.get(ts);
          expect(line?.[field], `${metric} at ${ts}`).toBeTruthy();
          expect(Math.round(Number(value) * 1e6) / 1e3).toBe(line![field]![key]);
          compared += 1;
        }
      }
      // Every second the timeline has a figure for is in Prometheus.
      const withFigures = lines.filter((l) => l[field] !== null).length;
      expect(matrix[0]!.values.length, metric).toBe(withFigures);
    }
    expect(compared).toBeGreaterThan(0);
    console.info(`prometheus: ${compared} quantile samples compared with timeline.ndjson, all equal to the ms`);
  });

  it('reports what it sent in summary.json, run.json and on the console', () => {
    const summary = readJson<Summary>(join(out, 'summary.json'));
    const lines = readNdjson<TimelineLine>(join(out, 'timeline.ndjson'));
    expect(summary.outputs).toEqual([expect.objectContaining({ kind: 'prometheus-rw', url: prom.writeUrl, sent_batches: lines.length, dropped_batches: 0, errors: 0 })]);
    expect(readJson<RunInfo>(join(out, 'run.json')).outputs).toEqual(summary.outputs);
    expect(result.stdout).toContain(`output prometheus-rw ${prom.writeUrl}: ${lines.length} batch(es) sent`);
  });

  it('shows two shards as one picture by the shard label', async () => {
    const shardArgs = ['run', SUITE, '--models', 'gpt-4o-mini', '--rate', '4', '--duration', '2s', '--seed', '7', '--output', `prometheus-rw=${prom.writeUrl}`];
    // One after the other (as two machines' shards need not be simultaneous): the picture is by label.
    const a = await runCli([...shardArgs, '--shard', '1/2', '--out', join(root, 'shard1')]);
    const b = await runCli([...shardArgs, '--shard', '2/2', '--out', join(root, 'shard2')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const results = ['shard1', 'shard2'].map((d) => readNdjson<Sample>(join(root, d, 'results.ndjson')).length);
    const byShard = await prom.query<PromVector>('sum by (shard) (kbbench_requests_total{suite="small",shard=~".*/2"})');
    const counts = Object.fromEntries(byShard.map((s) => [s.metric.shard, Number(s.value[1])]));
    expect(counts).toEqual({ '1/2': results[0], '2/2': results[1] });
    const whole = total(await prom.query<PromVector>('sum(kbbench_requests_total{suite="small",shard=~".*/2"})'));
    expect(whole).toBe(results[0]! + results[1]!);
    console.info(`prometheus: sum by (shard) kbbench_requests_total = ${JSON.stringify(counts)}, sum = ${whole}`);
  }, 120_000);
});

describe.skipIf(!hasPrometheus)('a dead or hung remote-write endpoint', () => {
  let hung: Server;
  const sockets = new Set<Socket>();
  let hungUrl = '';
  beforeAll(async () => {
    // Accepts the connection, never answers: only the request's time limit and stop's deadline end it.
    hung = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const address = hung.address();
    hungUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1/write`;
  });
  afterAll(() => {
    for (const s of sockets) s.destroy();
    hung.close();
  });

  it('costs the run nothing: same verdict and results as without it, dropped batches reported', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/api/v1/write`;
    const root = tempDir();
    const runs = [
      await runCli(['run', SUITE, ...SHORT_LOAD, '--out', join(root, 'plain')]),
      await runCli(['run', SUITE, ...SHORT_LOAD, '--out', join(root, 'dead'), '--output', `prometheus-rw=${dead}`, '--output', `prometheus-rw=${hungUrl}`]),
    ];
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const [plain, withDead] = ['plain', 'dead'].map((d) => readJson<Summary>(join(root, d, 'summary.json')));
    expect(withDead!.verdict).toBe(plain!.verdict);
    expect(withDead!.totals.requests).toBe(plain!.totals.requests);
    expect(withDead!.totals.dropped).toBe(0);
    const seconds = readNdjson<TimelineLine>(join(root, 'dead', 'timeline.ndjson')).length;
    const [refused, hanging] = withDead!.outputs!;
    // Refused: every second's batch failed and was dropped, each counted.
    expect(refused).toMatchObject({ url: dead, sent_batches: 0, dropped_batches: seconds, errors: seconds });
    expect(refused!.first_error).toMatch(/fetch failed|ECONNREFUSED/);
    // Hung: nothing sent, every batch given up (timed out, pushed out, or cut at stop's deadline).
    expect(hanging).toMatchObject({ url: hungUrl, sent_batches: 0, dropped_batches: seconds });
    expect(runs[1]!.stdout).toContain(`output prometheus-rw ${dead}: 0 batch(es) sent`);
    expect(runs[1]!.stdout).toMatch(/batch\(es\) dropped \(the run went on without them\)/);
    console.info(`dead endpoint: ${JSON.stringify(refused)}; hung endpoint: ${JSON.stringify(hanging)}; verdicts ${plain!.verdict}/${withDead!.verdict}`);
  }, 120_000);
});
