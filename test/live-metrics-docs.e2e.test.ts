// docs/live-metrics.md: its `npx kbbench` lines run as written (the endpoint swapped for a real
// Prometheus on a free port, or a dead one when the binary is absent: the runs must pass either way),
// and its metric table names every metric the Prometheus output sends. Each run is the built CLI in
// this process (runCliInProcess: nothing here is about a process boundary) and lasts 2 s, not the
// page's 5 s: every closed second is pushed, and two of them make the same series.
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROM_METRICS } from '../src/outputs/prometheus/series.js';
import type { Summary } from '../src/domain/summary.js';
import { readJson, readNdjson, ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';
import { freePort, hasPrometheus, PROMETHEUS_BIN, startPrometheus, type PrometheusHandle, type PromVector } from './prometheus-support.js';

const DOC = readFileSync(join(ROOT, 'docs', 'live-metrics.md'), 'utf8');
const DOC_URL = 'http://127.0.0.1:9090/api/v1/write';

function docCommands(): string[] {
  return [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('npx kbbench '));
}

if (!hasPrometheus) console.warn(`live-metrics-docs.e2e.test.ts: ${PROMETHEUS_BIN} does not exist: the commands run against a dead endpoint, Prometheus's side is skipped.`);

describe('docs/live-metrics.md', () => {
  let prom: PrometheusHandle | null = null;
  let work = '';
  const commands = docCommands();
  beforeAll(async () => {
    prom = hasPrometheus ? await startPrometheus() : null;
    const url = prom ? prom.writeUrl : `http://127.0.0.1:${await freePort()}/api/v1/write`;
    work = tempDir('kbbench-live-docs-');
    cpSync(join(ROOT, 'suites'), join(work, 'suites'), { recursive: true });
    for (const line of commands) {
      const args = line.replaceAll(DOC_URL, url).replace('--duration 5s', '--duration 2s').split(/\s+/).slice(2);
      const r = await runCli([...args, '--latency-scale', '0.2', '--quiet'], { cwd: work });
      expect(r.code, `${line}: ${r.stderr}`).toBe(0);
    }
  }, 180_000);
  afterAll(() => prom?.stop());

  it('has runs with --output, every one of them passing', () => {
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const line of commands) expect(line).toContain(`--output prometheus-rw=${DOC_URL}`);
    for (const line of commands) expect(line).toContain('--duration 5s');
    const runs = readdirSync(join(work, 'reports'));
    expect(runs).toHaveLength(commands.length);
    for (const run of runs) expect(readJson<Summary>(join(work, 'reports', run, 'summary.json')).verdict).toBe('pass');
  });

  it.skipIf(!hasPrometheus)('puts every run in Prometheus, its shards apart by label', async () => {
    const results = readdirSync(join(work, 'reports')).reduce((a, run) => a + readNdjson(join(work, 'reports', run, 'results.ndjson')).length, 0);
    const all = await prom!.query<PromVector>('sum(kbbench_requests_total{suite="demo"})');
    expect(Number(all[0]?.value[1])).toBe(results);
    const shards = (await prom!.query<PromVector>('count by (shard) (kbbench_in_flight{suite="demo"})')).map((s) => s.metric.shard).sort();
    expect(shards).toEqual(['1/1', '1/2', '2/2']);
  });

  it('lists every metric the output sends', () => {
    for (const name of Object.values(PROM_METRICS)) expect(DOC, name).toContain(`\`${name}\``);
  });
});
