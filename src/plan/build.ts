// Expands a suite into work items: cases × models × repeats and threads × models × repeats.
import { InputError } from '../domain/errors.js';
import type { RequestOptions, Suite, SuiteCase, SuiteThread } from '../domain/suite.js';
import { isKnownModel } from '../protocol/models.js';
import { caseItemId, threadKey, turnItemId } from './item-id.js';
import { formatShard, shardOf } from './shard.js';
import {
  DEFAULT_MODEL_LABEL,
  type CaseItem,
  type ExcludedElement,
  type Plan,
  type PlanCounts,
  type PlanOptions,
  type Shard,
  type ThreadItem,
  type WorkItem,
} from './types.js';

/**
 * Option precedence, lowest to highest: the suite's `defaults`, then the case's (or turn's) own
 * options, then flag overrides. A case's setting is a deliberate part of that case, so it beats
 * the suite-wide default; a flag is the user's explicit instruction for this run (`--no-stream`
 * to measure everything without streaming), so it beats both.
 */
export function mergeOptions(...layers: readonly (RequestOptions | undefined)[]): RequestOptions {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) if (value !== undefined) merged[key] = value;
  }
  return merged as RequestOptions;
}

interface RunModels {
  /** null = no model parameter (the service's default). */
  models: (string | null)[];
  /** The run names its models (suite or flag), so a case restriction is intersected with them. */
  named: boolean;
}

function runModels(suite: Suite, flagModels: readonly string[] | undefined): RunModels {
  const fromFlag = [...new Set((flagModels ?? []).map((m) => m.trim()).filter((m) => m !== ''))];
  const models = fromFlag.length > 0 ? fromFlag : suite.models;
  return models.length > 0 ? { models: [...models], named: true } : { models: [null], named: false };
}

/** A case's own `models` restricts it to those; when the run names none, they are used as given. */
function modelsFor(restriction: readonly string[] | undefined, run: RunModels): (string | null)[] {
  if (!restriction) return run.models;
  if (!run.named) return [...restriction];
  return run.models.filter((model) => model !== null && restriction.includes(model));
}

const label = (model: string | null): string => model ?? DEFAULT_MODEL_LABEL;

function caseItem(entry: SuiteCase, model: string | null, repeat: number, suite: Suite, flags: RequestOptions | undefined): CaseItem {
  return {
    kind: 'case',
    item_id: caseItemId(entry.id, label(model), repeat),
    case_id: entry.id,
    model: label(model),
    request_model: model,
    repeat,
    prompt: entry.prompt,
    options: mergeOptions(suite.defaults, entry.options, flags),
    checks: entry.assert,
    location: entry.location,
  };
}

function threadItem(entry: SuiteThread, model: string | null, repeat: number, suite: Suite, flags: RequestOptions | undefined): ThreadItem {
  const item: ThreadItem = {
    kind: 'thread',
    thread_key: threadKey(entry.id, label(model), repeat),
    thread_id: entry.id,
    model: label(model),
    request_model: model,
    repeat,
    turns: entry.turns.map((turn) => ({
      item_id: turnItemId(entry.id, turn.turn, label(model), repeat),
      turn: turn.turn,
      prompt: turn.prompt,
      options: mergeOptions(suite.defaults, turn.options, flags),
      checks: turn.assert,
      location: turn.location,
    })),
    location: entry.location,
  };
  if (entry.name !== undefined) item.name = entry.name;
  return item;
}

function validateRepeat(repeat: number): number {
  if (!Number.isInteger(repeat) || repeat < 1) throw new InputError(`--repeat ${repeat}: must be a whole number ≥ 1`, { field: '--repeat' });
  return repeat;
}

function validateShard(shard: Shard | undefined): Shard | null {
  if (!shard) return null;
  const { index, count } = shard;
  if (!Number.isInteger(index) || !Number.isInteger(count) || count < 1 || index < 1 || index > count) {
    throw new InputError(`--shard ${formatShard(shard)}: expected i/N with 1 ≤ i ≤ N`, { field: '--shard' });
  }
  return shard;
}

export function itemKey(item: WorkItem): string {
  return item.kind === 'case' ? item.item_id : item.thread_key;
}

export function countPlan(items: readonly WorkItem[]): PlanCounts {
  const counts: PlanCounts = { items: items.length, cases: 0, threads: 0, turns: 0, requests: 0, per_model: {} };
  for (const item of items) {
    const perModel = (counts.per_model[item.model] ??= { items: 0, cases: 0, threads: 0, requests: 0 });
    const requests = item.kind === 'case' ? 1 : item.turns.length;
    perModel.items += 1;
    perModel.requests += requests;
    counts.requests += requests;
    if (item.kind === 'case') {
      counts.cases += 1;
      perModel.cases += 1;
    } else {
      counts.threads += 1;
      counts.turns += item.turns.length;
      perModel.threads += 1;
    }
  }
  return counts;
}

function excluded(kind: 'case' | 'thread', id: string, restriction: readonly string[], run: RunModels): ExcludedElement {
  const reason = `restricted to ${restriction.join(', ')}, none of which this run uses (${run.models.map(label).join(', ')})`;
  return { kind, id, reason };
}

/**
 * Items come repeat by repeat, and within a repeat each case (then each thread) on every model
 * side by side: an interrupted run has compared the models on the same questions so far.
 */
export function buildPlan(suite: Suite, options: PlanOptions = {}): Plan {
  const repeat = validateRepeat(options.repeat ?? 1);
  const shard = validateShard(options.shard);
  const run = runModels(suite, options.models);
  const left: ExcludedElement[] = [];
  for (const entry of suite.cases) if (entry.models && modelsFor(entry.models, run).length === 0) left.push(excluded('case', entry.id, entry.models, run));
  for (const entry of suite.threads) if (entry.models && modelsFor(entry.models, run).length === 0) left.push(excluded('thread', entry.id, entry.models, run));
  const all: WorkItem[] = [];
  for (let r = 1; r <= repeat; r += 1) {
    for (const entry of suite.cases) for (const model of modelsFor(entry.models, run)) all.push(caseItem(entry, model, r, suite, options.defaults));
    for (const entry of suite.threads) for (const model of modelsFor(entry.models, run)) all.push(threadItem(entry, model, r, suite, options.defaults));
  }
  const items = shard ? all.filter((item) => shardOf(itemKey(item), shard.count) === shard.index) : all;
  const models = [...new Set(all.map((item) => item.model))];
  // The suite's own unknown models are already in suite.warnings, with their line.
  const warnings = (options.models ?? [])
    .filter((model) => model.trim() !== '' && !isKnownModel(model.trim()))
    .map((model) => `--models: unknown model "${model.trim()}"; it will be sent as written`);
  return {
    suite: { name: suite.name, path: suite.path, sha256: suite.sha256 },
    models,
    repeat,
    shard,
    items,
    counts: countPlan(items),
    excluded: left,
    warnings,
  };
}
