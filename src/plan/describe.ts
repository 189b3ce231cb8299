// What `kbbench validate` shows: the plan as data (counts per model, threads, each request).
import type { Endpoint, HttpMethod } from '../domain/sample.js';
import type { RequestOptions } from '../domain/suite.js';
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
  checks: number;
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

/**
 * kbbench's defaults, as the runner applies them: POST, and streaming ON (the interface's default
 * is off, but time to first chunk is only measurable on a stream; `--no-stream` turns it off).
 */
function transport(options: RequestOptions): { method: HttpMethod; streaming: boolean } {
  return { method: options.method ?? 'post', streaming: options.streaming ?? true };
}

function plannedRequests(plan: Plan): PlannedRequest[] {
  const requests: PlannedRequest[] = [];
  for (const unit of plan.units()) {
    if (unit.kind === 'case') {
      const r = unit.request;
      requests.push({ id: formatItemId(r.id), endpoint: 'ask', ...transport(r.options), model: r.model, prompt: r.prompt, checks: r.checks.length });
      continue;
    }
    // Creating a conversation is always a POST without streaming (interface.md 4.5).
    requests.push({ id: formatItemId(unit.key), endpoint: 'create', method: 'post', streaming: false, model: unit.model, prompt: null, checks: 0 });
    for (const turn of unit.turns) {
      requests.push({ id: formatItemId(turn.id), endpoint: 'continue', ...transport(turn.options), model: unit.model, prompt: turn.prompt, checks: turn.checks.length });
    }
  }
  return requests;
}

function threadsOf(plan: Plan): PlanDescription['threads'] {
  const threads = new Map<string, PlanDescription['threads'][number]>();
  for (const item of plan.units()) {
    if (item.kind !== 'thread') continue;
    const entry = threads.get(item.thread_id) ?? { thread_id: item.thread_id, turns: item.turns.length, models: [] };
    if (item.name !== undefined) entry.name = item.name;
    if (!entry.models.includes(item.model)) entry.models.push(item.model);
    threads.set(item.thread_id, entry);
  }
  return [...threads.values()];
}

export function describePlan(plan: Plan): PlanDescription {
  return {
    suite: { name: plan.suite.name, path: plan.suite.path },
    models: plan.models,
    repeat: plan.repeat,
    shard: plan.shard ? formatShard(plan.shard) : null,
    counts: plan.counts,
    per_model: Object.entries(plan.counts.per_model).map(([model, counts]) => ({ model, ...counts })),
    threads: threadsOf(plan),
    requests: plannedRequests(plan),
    excluded: plan.excluded,
    warnings: plan.warnings,
  };
}
