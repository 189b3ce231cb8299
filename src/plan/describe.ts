// What `kbbench validate` shows: the plan as data (counts per model, threads, each request).
import type { Endpoint, HttpMethod } from '../domain/sample.js';
import type { RequestOptions } from '../domain/suite.js';
import { checkAsRead, type CheckAsRead } from './check-listing.js';
import { formatItemId } from './item-id.js';
import { formatShard } from './shard.js';
import type { ExcludedElement, ModelCounts, Plan, PlanCounts } from './types.js';

export interface PlannedRequest {
  /** The item_id, or for a `create` the thread_key of the conversation it opens. */
  id: string;
  endpoint: Endpoint;
  method: HttpMethod;
  streaming: boolean;
  model: string;
  /** Null for `create`, which sends no message. */
  prompt: string | null;
  /** Each check as read (type, value after templating, threshold, weight), made when the request is read. */
  checks: CheckAsRead[];
}

export interface PlanDescription {
  suite: { name: string; path: string };
  models: string[];
  repeat: number;
  shard: string | null;
  counts: PlanCounts;
  per_model: (ModelCounts & { model: string })[];
  threads: { thread_id: string; name?: string; turns: number; models: string[] }[];
  requests: PlannedRequest[];
  excluded: ExcludedElement[];
  warnings: string[];
}

/** A PlanDescription whose threads and requests are read one at a time (each read is a new pass over the plan). */
export type LazyPlanDescription = Omit<PlanDescription, 'threads' | 'requests'> & {
  threads: Iterable<PlanDescription['threads'][number]>;
  requests: Iterable<PlannedRequest>;
};

/**
 * kbbench's defaults, as the runner applies them: POST, and streaming ON (the interface's default
 * is off, but time to first chunk is only measurable on a stream; `--no-stream` turns it off).
 */
function transport(options: RequestOptions): { method: HttpMethod; streaming: boolean } {
  return { method: options.method ?? 'post', streaming: options.streaming ?? true };
}

/** Each request of the plan, in the order a run sends them, computed as it is reached. */
function* plannedRequests(plan: Plan): Generator<PlannedRequest> {
  for (const unit of plan.units()) {
    if (unit.kind === 'case') {
      const r = unit.request;
      yield { id: formatItemId(r.id), endpoint: 'ask', ...transport(r.options), model: r.model, prompt: r.prompt, checks: r.checks.map(checkAsRead) };
      continue;
    }
    // Creating a conversation is always a POST without streaming (interface.md 4.5).
    yield { id: formatItemId(unit.key), endpoint: 'create', method: 'post', streaming: false, model: unit.model, prompt: null, checks: [] };
    for (const turn of unit.turns) {
      yield { id: formatItemId(turn.id), endpoint: 'continue', ...transport(turn.options), model: unit.model, prompt: turn.prompt, checks: turn.checks.map(checkAsRead) };
    }
  }
}

type PlannedThread = PlanDescription['threads'][number];

/**
 * Each thread of the plan once, in the order the plan first reaches it, with the models it runs on.
 * One pass over the units keeps per thread only its place, name, turn count and an index into the
 * few distinct model lists (~60 bytes; an object with its own models array was ~200), then the
 * entries are made one at a time as they are read.
 */
function* plannedThreads(plan: Plan): Generator<PlannedThread> {
  // Thread id → its place; the Map's insertion order is the order of first appearance.
  const place = new Map<string, number>();
  const names: (string | undefined)[] = [];
  const turns: number[] = [];
  const modelList: number[] = [];
  const lists: string[][] = [[]];
  const listIndex = new Map<string, number>([['', 0]]);
  for (const unit of plan.units()) {
    if (unit.kind !== 'thread') continue;
    let at = place.get(unit.thread_id);
    if (at === undefined) {
      at = place.size;
      place.set(unit.thread_id, at);
      names.push(undefined);
      turns.push(unit.turns.length);
      modelList.push(0);
    }
    if (unit.name !== undefined) names[at] = unit.name;
    const models = lists[modelList[at]!]!;
    if (models.includes(unit.model)) continue;
    const next = [...models, unit.model];
    const key = next.join('\u0000');
    let index = listIndex.get(key);
    if (index === undefined) {
      index = lists.push(next) - 1;
      listIndex.set(key, index);
    }
    modelList[at] = index;
  }
  for (const [id, at] of place) {
    const entry: PlannedThread = { thread_id: id, turns: turns[at]!, models: [...lists[modelList[at]!]!] };
    if (names[at] !== undefined) entry.name = names[at];
    yield entry;
  }
}

/** An iterable that starts a new pass each time it is read (a generator object is read once only). */
function each<T>(pass: () => Iterator<T>): Iterable<T> {
  return { [Symbol.iterator]: pass };
}

/**
 * The plan's description with its threads and requests as iterables, each entry computed when it
 * is read: what validate prints, in memory proportional to one request (plus the thread index),
 * never to the plan (200k request objects held at once took ~80 MB).
 */
export function describePlanLazily(plan: Plan): LazyPlanDescription {
  return {
    suite: { name: plan.suite.name, path: plan.suite.path },
    models: plan.models,
    repeat: plan.repeat,
    shard: plan.shard ? formatShard(plan.shard) : null,
    counts: plan.counts,
    per_model: Object.entries(plan.counts.per_model).map(([model, counts]) => ({ model, ...counts })),
    threads: each(() => plannedThreads(plan)),
    requests: each(() => plannedRequests(plan)),
    excluded: plan.excluded,
    warnings: plan.warnings,
  };
}

/** The whole description as data (the library's API); validate reads describePlanLazily's. */
export function describePlan(plan: Plan): PlanDescription {
  const lazy = describePlanLazily(plan);
  return { ...lazy, threads: [...lazy.threads], requests: [...lazy.requests] };
}
