// Issue 36 item 4 and issue 33 item 4: against a peer on 127.0.0.1 whose answers go wrong above a
// concurrency, a ramp from 2 to 12 starts/s keeps its throughput while its goodput falls, and the
// questions are classed degrades_under_load (not flaky), on the console, in summary.json,
// timeline.ndjson, report.html and the Prometheus metric names.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../src/domain/summary.js';
import type { TimelineLine } from '../src/domain/timeline.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServiceInProcess, tempDir, type InProcessService } from './helpers.js';
import { startDegradePeer, type DegradePeer } from './degrade-peer.js';

describe('a peer that degrades answers above a concurrency', () => {
  let serve: InProcessService;
  let peer: DegradePeer;
  let out: string;
  let result: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    serve = await startServiceInProcess({ latencyScale: 0 });
    // 400 ms a answer: about 0.8 in flight at 2 starts/s, about 5 at 12/s; past 2 in flight, a wrong answer.
    peer = await startDegradePeer(serve.url, { serviceMs: 400, maxGoodInFlight: 2 });
    out = join(tempDir(), 'run');
    result = await runCli(
      ['run', 'test/fixtures/e2e/degrade.yaml', '--base-url', peer.url, '--out', out, '--start-rate', '2', '--stages', '6s:2,1s:12,6s:12', '--max-in-flight', '32', '--graceful-stop', '5s'],
      { env: { KBBENCH_API_KEY: serve.key } },
    );
  }, 60_000);
  afterAll(async () => {
    await peer.stop();
    await serve.stop();
  });

  it('goodput falls while throughput holds, per stage, per second and in totals', () => {
    expect(result.code, result.stderr).toBe(1);
    expect(peer.degraded()).toBeGreaterThan(0);
    const summary = readJson<Summary>(join(out, 'summary.json'));
    const [low, , high] = summary.stages!;
    // At 2/s every answer is right: goodput is the throughput.
    expect(low!.throughput).toBeGreaterThan(1);
    expect(low!.goodput).toBeCloseTo(low!.throughput!, 5);
    // At 12/s the answers keep coming (throughput holds at the rate achieved, well above the low stage's) but are wrong.
    // (Against the achieved rate, not the target: on a busy 2-core machine the harness may start fewer.)
    expect(high!.throughput!).toBeGreaterThan(0.8 * high!.achieved_rate!);
    expect(high!.throughput!).toBeGreaterThan(2 * low!.throughput!);
    expect(high!.goodput!).toBeLessThan(low!.goodput!);
    expect(high!.goodput!).toBeLessThan(0.3 * high!.throughput!);
    expect(summary.totals.goodput).toBeGreaterThan(0);
    expect(summary.totals.good_answers).toBeLessThan(summary.totals.ok);
    expect(summary.goodput!.definition).toMatch(/passed their checks, with no time bound \(no --slo\)/);
    // The knee by goodput: a stage below the 12/s one gave the most good answers per second (the low stage,
    // or the 1 s ramp out of it when its few answers came quick enough).
    expect(summary.goodput!.knee).toMatchObject({ is_last: false });
    expect(summary.goodput!.knee!.stage).toBeLessThan(2);
    expect(summary.goodput!.knee!.goodput).toBeGreaterThan(high!.goodput!);
    const lines = readNdjson<TimelineLine>(join(out, 'timeline.ndjson'));
    expect(lines.every((l) => typeof l.good === 'number')).toBe(true);
    expect(lines.reduce((a, l) => a + l.good!, 0)).toBe(summary.totals.good_answers);
  });

  it('classes the questions degrades_under_load, not flaky, with the trend test named', () => {
    const summary = readJson<Summary>(join(out, 'summary.json'));
    const degrades = summary.degrades_under_load!;
    expect(degrades.shown.map((q) => q.label).sort()).toEqual(['encryption', 'soc2', 'team-price']);
    expect(degrades.method).toMatch(/Cochran–Armitage/);
    for (const q of degrades.shown) {
      expect(q.p_adjusted).toBeLessThan(0.05);
      expect(q.levels[0]!.passed).toBe(q.levels[0]!.judged);
    }
    expect(summary.flaky?.total ?? 0).toBe(0);
    expect(summary.cases.every((c) => c.models['gpt-4o-mini']!.stability === 'degrades_under_load')).toBe(true);
    // cases.csv says what summary.json says.
    const rows = parse(readFileSync(join(out, 'cases.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.stability)).toEqual(summary.cases.map(() => 'degrades_under_load'));
    // Miller's rule: the question-averaged pass rate per level falls from 1.
    const byLevel = degrades.pass_rate_by_level;
    expect(byLevel[0]!.pass_rate).toBe(1);
    expect(byLevel.at(-1)!.pass_rate).toBeLessThan(0.3);
  });

  it('says it on the console and draws goodput against offered load in report.html', () => {
    expect(result.stdout).toMatch(/goodput\/s/);
    expect(result.stdout).toMatch(/goodput [\d.]+\/s of [\d.]+ answers\/s/);
    expect(result.stdout).toMatch(/knee by goodput ▲/);
    expect(result.stdout).toMatch(/degrades under load \(pass rate fell as the offered load rose; not flaky\): 3 case × model/);
    expect(result.stdout).not.toMatch(/^flaky/m);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('id="goodput-chart"');
    expect(html).toContain('data-class="degrades_under_load"');
  });
});
