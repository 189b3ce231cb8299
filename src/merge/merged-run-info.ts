// run.json of a merged run: the shards' plans added, their time spans joined, their statuses combined.
import { mergeRunLoads } from '../metrics/merge-timelines.js';
import { randomUUID } from 'node:crypto';
import { hasSchedule } from '../domain/load.js';
import { RUN_INFO_SCHEMA_VERSION, type RunInfo, type RunStatus } from '../domain/run.js';
import { InputError } from '../domain/errors.js';
import { shardsSchedule } from '../load/index.js';

export interface ShardRun {
  dir: string;
  run: RunInfo;
  /** Result lines the shard contributed. */
  lines: number;
}

export interface ShardEntry {
  run_dir: string;
  run_id: string;
  shard: string | null;
  status: RunStatus;
  requests: number;
  suite_sha256: string;
  started_at: string;
  finished_at: string | null;
}

export type MergedRunInfo = RunInfo & { shards: ShardEntry[]; merged_at: string };

/** The worst status wins: a merged run is only as complete as its least complete shard. */
const STATUS_RANK: Record<RunStatus, number> = { completed: 0, 'budget-exhausted': 1, interrupted: 2, running: 2, aborted: 3, failed: 3 };

export function mergedStatus(statuses: readonly RunStatus[]): RunStatus {
  const worst = statuses.reduce<RunStatus>((w, s) => (STATUS_RANK[s] > STATUS_RANK[w] ? s : w), 'completed');
  // A shard still `running` stopped without finishing its run.json: for the merged run it was interrupted.
  return worst === 'running' ? 'interrupted' : worst;
}

export function shardLabel(run: RunInfo): string | null {
  const shard = run.config.placement.shard;
  return shard ? `${shard.index}/${shard.count}` : null;
}

const ms = (iso: string): number => Date.parse(iso);

/** How far after the earliest shard each one started, in ms: its results' offsets move by this much. */
export function startShiftsMs(runs: readonly RunInfo[]): number[] {
  const earliest = Math.min(...runs.map((r) => ms(r.started_at)));
  return runs.map((r) => (Number.isFinite(earliest) && Number.isFinite(ms(r.started_at)) ? ms(r.started_at) - earliest : 0));
}

function union<T>(lists: readonly (readonly T[])[]): T[] {
  return [...new Set(lists.flat())];
}

function mergedThresholds(runs: readonly RunInfo[]): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const run of runs) for (const [key, list] of Object.entries(run.thresholds ?? {})) merged[key] = union([merged[key] ?? [], list]);
  return merged;
}

function timeSpan(runs: readonly RunInfo[]): Pick<RunInfo, 'started_at' | 'finished_at' | 'duration_ms'> {
  const started = [...runs].sort((a, b) => ms(a.started_at) - ms(b.started_at))[0]!.started_at;
  const finishedList = runs.map((r) => r.finished_at).filter((f): f is string => f !== null);
  const finished = finishedList.length ? finishedList.sort((a, b) => ms(b) - ms(a))[0]! : null;
  // Shards usually run side by side: the merged run lasted from the first start to the last finish.
  const duration = finished !== null ? Math.max(0, ms(finished) - ms(started)) : null;
  return { started_at: started, finished_at: finished, duration_ms: duration !== null && Number.isFinite(duration) ? duration : null };
}

function stopReason(shards: readonly ShardRun[]): string | undefined {
  const reasons = shards.filter((s) => s.run.status !== 'completed').map((s) => `${s.dir}: ${s.run.stop_reason ?? s.run.status}`);
  return reasons.length ? reasons.join('; ') : undefined;
}

/** Open-loop shards are segments of the starts over one whole plan (runner/segment.ts): each holds that plan. */
const isSegment = (run: RunInfo): boolean => shardsSchedule(run.load.spec) && shardLabel(run) !== null;

/**
 * Item shards hold disjoint parts of the plan, which add up; open-loop segments share the whole plan
 * (its items and threads) while their starts, and the requests those imply, add up to the whole run's.
 */
function mergedPlan(runs: readonly RunInfo[]): RunInfo['plan'] {
  if (runs.every(isSegment)) {
    const plan = { ...runs[0]!.plan, models: union(runs.map((r) => r.plan.models)), requests: runs.reduce((a, r) => a + r.plan.requests, 0) };
    if (runs.every((r) => r.plan.starts !== undefined)) plan.starts = runs.reduce((a, r) => a + r.plan.starts!, 0);
    return plan;
  }
  return {
    items: runs.reduce((a, r) => a + r.plan.items, 0),
    requests: runs.reduce((a, r) => a + r.plan.requests, 0),
    threads: runs.reduce((a, r) => a + r.plan.threads, 0),
    models: union(runs.map((r) => r.plan.models)),
  };
}

/** `missing`: shard labels absent from a merge --allow-partial: the merged run did not do all its work. */
export function mergedRunInfo(shards: readonly ShardRun[], toolVersion: string, nowIso: string, missing: readonly string[] = []): MergedRunInfo {
  const runs = shards.map((s) => s.run);
  const first = runs[0]!;
  // The first shard's config, its placement and directory the merged run's own (no shard, no resume, no --out).
  const { outDir: _out, ...outputs } = first.config.outputs;
  const { shard: _shard, resumeDir: _resume, ...placement } = first.config.placement;
  const config = { ...first.config, placement, outputs, record: { ...first.config.record, mergedFrom: shards.map((s) => s.dir) } };
  const worst = mergedStatus(runs.map((r) => r.status));
  // A partial merge is never complete: its verdict is incomplete (exit 3), whatever its shards say.
  const status = missing.length > 0 && worst === 'completed' ? 'interrupted' : worst;
  const partial = missing.length > 0 ? `merged with --allow-partial: shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing` : undefined;
  const reason = [partial, stopReason(shards)].filter((r) => r !== undefined).join('; ') || undefined;
  // Every segment holds the whole run's spec (a shard runs its part of it): the merged run has that spec.
  const load = { spec: first.load.spec, ...mergeRunLoads(runs.map((r) => (hasSchedule(r.load) ? r.load : undefined))) };
  return {
    schema_version: RUN_INFO_SCHEMA_VERSION,
    run_id: randomUUID(),
    tool: { name: 'kbbench', version: toolVersion },
    suite: first.suite,
    plan: mergedPlan(runs),
    config,
    target: first.target,
    thresholds: mergedThresholds(runs),
    ...timeSpan(runs),
    status,
    dropped: runs.reduce((a, r) => a + (r.dropped ?? 0), 0),
    load,
    ...(reason !== undefined ? { stop_reason: reason } : {}),
    shards: shards.map((s) => ({
      run_dir: s.dir, run_id: s.run.run_id, shard: shardLabel(s.run), status: s.run.status, requests: s.lines,
      suite_sha256: s.run.suite.sha256, started_at: s.run.started_at, finished_at: s.run.finished_at,
    })),
    merged_at: nowIso,
  };
}

/** Options that shape the plan (its load is `load.spec`): shards of one run share them all. */
const PLAN_OPTIONS = ['models', 'repeat', 'filter', 'onlyFailedDir'] as const satisfies readonly (keyof RunInfo['config']['plan'])[];

function planShape(run: RunInfo): Record<string, string> {
  // The models asked for (an item shard's plan may hold fewer: its items' models alone).
  const shape: Record<string, string> = {};
  for (const key of PLAN_OPTIONS) shape[key] = JSON.stringify(key === 'models' && run.config.plan.models ? [...run.config.plan.models].sort() : (run.config.plan[key] ?? null));
  // The load spec (run.json `load.spec`): every shard of one run holds the whole run's. Workers and
  // the in-flight cap are a machine's capacity, not the plan: shards may differ there.
  const { concurrency: _workers, maxInFlight: _cap, ...spec } = (run.load?.spec ?? {}) as unknown as Record<string, unknown>;
  shape.load = JSON.stringify(spec);
  return shape;
}

/** `--repeat` for `repeat`, as the user typed it. */
const flagOf = (key: string): string => (key === 'load' ? 'the load (run.json load.spec)' : `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);

/**
 * Whether the runs are one whole set of shards of one plan. Shards that disagree on the plan
 * (another --models, --repeat, --rate…) would add up to no run that was asked for: always an input
 * error. Shards missing from the set (2 of 3): an input error unless `allowPartial`, which merges
 * what is there and says what is missing (the merged run is then incomplete). Runs that are not
 * shards (no --shard) merge as before. Returns the missing labels.
 */
export function checkShardSet(shards: readonly { dir: string; run: RunInfo }[], allowPartial: boolean): string[] {
  const first = shards[0]!;
  const shape = planShape(first.run);
  for (const other of shards.slice(1)) {
    const theirs = planShape(other.run);
    const differs = Object.keys(shape).filter((k) => shape[k] !== theirs[k]);
    if (differs.length > 0) {
      const what = differs.map((k) => `${flagOf(k)} ${shape[k]} vs ${theirs[k]}`).join('; ');
      throw new InputError(`${first.dir} and ${other.dir} were run with different plans (${what}): they are not shards of one run`, { field: 'run-dir' });
    }
  }
  const labels = shards.map((s) => shardLabel(s.run));
  if (labels.every((l) => l === null)) return [];
  if (labels.some((l) => l === null)) {
    const plain = shards.find((s) => shardLabel(s.run) === null)!;
    throw new InputError(`${plain.dir} is not a shard (no --shard) while the others are: a shard and a whole run would count items twice`, { field: 'run-dir' });
  }
  const counts = new Set(labels.map((l) => l!.split('/')[1]));
  if (counts.size > 1) throw new InputError(`the runs come from different splits (${[...counts].map((c) => `/${c}`).join(', ')}): not shards of one run`, { field: 'run-dir' });
  const seen = new Map<string, string>();
  for (const s of shards) {
    const label = shardLabel(s.run)!;
    const before = seen.get(label);
    if (before !== undefined) throw new InputError(`shard ${label} is given twice (${before} and ${s.dir})`, { field: 'run-dir' });
    seen.set(label, s.dir);
  }
  const count = Number([...counts][0]);
  const missing = Array.from({ length: count }, (_, i) => `${i + 1}/${count}`).filter((l) => !seen.has(l));
  if (missing.length > 0 && !allowPartial) {
    throw new InputError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} missing: the merged run would cover part of the plan (and, for a load test, part of its rate). ` +
        'Name every shard, or pass --allow-partial to merge what is there as an incomplete run',
      { field: 'run-dir' },
    );
  }
  return missing;
}
