// Many machines, on one: three shard processes of an open loop (JOB_COMPLETION_INDEX 0..2, one
// --start-at) against one reference service (one account), run with the exact command lines of
// deploy/k8s/job.yaml and of the GitHub Actions workflow, then merged by their merge steps. Each merge
// must equal one unsharded run of the same plan: the same item ids, the same counts. The shards are
// processes (as pods and matrix jobs are), and so is the unsharded run beside them (an open loop's starts
// must not wait on this busy process); the Job's merge and the input errors run
// the CLI in this process.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { parseStartAt, wallClockMs } from '../src/session/start-at.js';
import { expandArgs, loadManifests, loadWorkflow, manifest, stepRun } from './deploy-support.js';
import { CLI, ROOT, readJson, readNdjson, runCli, runCliInProcess, runWorkflowStep, startServe, tempDir, type CliResult, type ServeHandle } from './helpers.js';

/** The manifests' --output, here an endpoint nothing listens on: the shards' figures must not change for it (docs/live-metrics.md). */
const DEAD_REMOTE_WRITE = 'http://127.0.0.1:9/api/v1/write';

const SUITE = join(ROOT, 'test/fixtures/e2e/small.yaml');
// 15 starts/s for 2 s: 30 global starts over a plan of 10 units, so three passes (item ids with |c2, |c3).
const RATE = '15';
const DURATION = '2s';
const SHARDS = 3;
/** Long enough for four processes to start and pass their preflight on a busy 2-core machine. */
const LEAD_MS = 20_000;
const instantAhead = (): string => new Date(wallClockMs() + LEAD_MS).toISOString();

/** The workflow's steps say `shell: bash`: `bash -eo pipefail`. */
const runStep = (script: string, cwd: string, env: Record<string, string>, bin: string): Promise<CliResult> => runWorkflowStep(script, cwd, env, bin, ['-eo', 'pipefail']);

const idsOf = (dir: string): string[] => readNdjson<Sample>(join(dir, 'results.ndjson')).map((s) => s.item_id).sort();
interface SummaryJson {
  totals: { requests: number; ok: number };
  models: Record<string, { requests: number }>;
}

describe('an open loop split over 3 processes, as deploy/ runs it, merges into one run', () => {
  let serve: ServeHandle;
  const root = tempDir('kbbench-many-');
  const k8sResults = join(root, 'k8s');
  const actions = join(root, 'actions');
  const whole = join(root, 'whole');
  const bin = join(root, 'bin');
  const startAt: Record<string, string> = {};
  const workflow = loadWorkflow();
  const job = manifest(loadManifests(), 'Job', 'kbbench-load');
  const mergeJob = manifest(loadManifests(), 'Job', 'kbbench-merge');
  const podEnv = (index: number): Record<string, string> => ({
    KBBENCH_SUITE: SUITE, KBBENCH_RATE: RATE, KBBENCH_DURATION: DURATION, KBBENCH_START_AT: startAt.k8s!, KBBENCH_RUN: 'run-1', JOB_COMPLETION_INDEX: String(index),
    KBBENCH_PROMETHEUS_RW: DEAD_REMOTE_WRITE,
  });
  /** A pod's args as the kubelet expands them, its volume /results mapped to a temp dir. */
  const podArgs = (args: string[], index: number): string[] => expandArgs(args, podEnv(index)).map((a) => a.replace(/^\/results\//, `${k8sResults}/`));
  const results: Record<string, CliResult> = {};

  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0']);
    const service = { KBBENCH_BASE_URL: serve.url, KBBENCH_API_KEY: serve.key };
    mkdirSync(bin);
    mkdirSync(actions);
    writeFileSync(join(bin, 'kbbench'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, 'kbbench'), 0o755);
    // The pods of the Job (and, beside them, one unsharded run of the same plan), then the matrix jobs.
    startAt.k8s = instantAhead();
    const pods = Array.from({ length: SHARDS }, (_, i) => {
      const args = podArgs(job.spec.template.spec.containers[0].args as string[], i);
      return runCli(args, { env: { JOB_COMPLETION_INDEX: String(i), ...service } }).then((r) => void (results[`k8s-${i}`] = r));
    });
    const one = runCli(['run', SUITE, '--rate', RATE, '--duration', DURATION, '--out', whole, '--quiet'], { env: service }).then((r) => void (results.whole = r));
    await Promise.all([...pods, one]);
    startAt.actions = instantAhead();
    const shardStep = stepRun(workflow, 'shard', 'run this shard');
    const stepEnv = { KBBENCH_SUITE: SUITE, KBBENCH_RATE: RATE, KBBENCH_DURATION: DURATION, KBBENCH_START_AT: startAt.actions, KBBENCH_PROMETHEUS_RW: DEAD_REMOTE_WRITE, ...service };
    await Promise.all(
      Array.from({ length: SHARDS }, (_, i) => runStep(shardStep, actions, { ...stepEnv, JOB_COMPLETION_INDEX: String(i) }, bin).then((r) => void (results[`actions-${i}`] = r))),
    );
    results['k8s-merge'] = await runCliInProcess(podArgs(mergeJob.spec.template.spec.containers[0].args as string[], 0));
    results['actions-merge'] = await runStep(stepRun(workflow, 'merge', 'merge the shards'), actions, {}, bin);
  }, 120_000);
  afterAll(() => serve?.stop());

  it('every shard, the whole run and both merges exit 0', () => {
    for (const [name, r] of Object.entries(results)) expect(r.code, `${name}: ${r.stderr}`).toBe(0);
    expect(Object.keys(results)).toHaveLength(2 * SHARDS + 3);
  });

  it.each([['the Kubernetes Job', 'k8s', () => join(k8sResults, 'run-1')], ['the GitHub Actions matrix', 'actions', () => join(actions, 'shards')]])(
    'through %s: the merge holds the same item ids and counts as one run of the plan',
    (_how, key, dirOf) => {
      const dir = dirOf();
      const shardDirs = Array.from({ length: SHARDS }, (_, i) => join(dir, `shard-${i}`));
      const merged = join(dir, 'merged');
      const expected = idsOf(whole);
      expect(expected).toHaveLength(42); // 30 starts: 3 passes over 4 cases × 2 models and a 3-turn thread × 2 models
      expect(expected.some((id) => id.endsWith('|c3'))).toBe(true);
      expect(idsOf(merged)).toEqual(expected);
      // Each shard sent its own third of the starts, none twice.
      const perShard = shardDirs.map(idsOf);
      expect(perShard.flat().sort()).toEqual(expected);
      for (const ids of perShard) expect(ids.length).toBeLessThan(expected.length);
      const [m, w] = [merged, whole].map((d) => readJson<SummaryJson>(join(d, 'summary.json')));
      expect(m!.totals).toMatchObject({ requests: w!.totals.requests, ok: w!.totals.ok });
      for (const model of Object.keys(w!.models)) expect(m!.models[model]!.requests, model).toBe(w!.models[model]!.requests);
      const run = readJson<{ plan: unknown; shards: { shard: string }[] }>(join(merged, 'run.json'));
      expect(run.shards.map((s) => s.shard)).toEqual(['1/3', '2/3', '3/3']);
      expect(run.plan).toEqual(readJson<{ plan: unknown }>(join(whole, 'run.json')).plan);
      for (const shard of shardDirs) {
        // The manifests' --output reached the run, and its dead endpoint was reported, not fatal.
        const outputs = readJson<{ outputs?: { url: string; sent_batches: number; dropped_batches: number }[] }>(join(shard, 'summary.json')).outputs;
        expect(outputs).toEqual([expect.objectContaining({ url: DEAD_REMOTE_WRITE, sent_batches: 0 })]);
        expect(outputs![0]!.dropped_batches).toBeGreaterThan(0);
        const info = readJson<{ started_at: string; config: { placement: { startAt: string } } }>(join(shard, 'run.json'));
        expect(info.config.placement.startAt).toBe(startAt[key]);
        expect(Date.parse(info.started_at)).toBeGreaterThanOrEqual(Date.parse(startAt[key]!)); // none started before the instant
      }
    },
  );

  it("the workflow's start step gives an instant --start-at accepts", async () => {
    const output = join(root, 'github-output');
    const r = await runStep(stepRun(workflow, 'start', 'choose the start instant'), root, { GITHUB_OUTPUT: output }, bin);
    expect(r.code, r.stderr).toBe(0);
    const at = /^at=(.+)$/m.exec(readFileSync(output, 'utf8'))?.[1];
    expect(parseStartAt(at!, wallClockMs())).toBeGreaterThan(wallClockMs());
  });
});

describe('--start-at and --shard auto/N refuse bad input before anything is sent (exit 2)', () => {
  it.each([
    [['--start-at', '2020-01-01T00:00:00Z'], {}, /--start-at: 2020-01-01T00:00:00Z passed .* ago/],
    [['--start-at', 'in a minute'], {}, /--start-at: "in a minute" is not an ISO 8601 instant with a zone/],
    [['--shard', 'auto/3'], {}, /--shard: --shard "auto\/3" takes the shard from JOB_COMPLETION_INDEX \(0-based\), which is not set/],
    [['--shard', 'auto/3'], { JOB_COMPLETION_INDEX: '3' }, /JOB_COMPLETION_INDEX="3" is not a whole number from 0 to 2/],
  ] as const)('%j', async (flags, env, message) => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', SUITE, '--rate', '5', '--duration', '1s', '--out', out, ...flags], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });
});
