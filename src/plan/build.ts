// Turns a suite into a lazy plan: cases × models × repeats and threads × models × repeats as an index
// space whose unit k is computed when the runner asks for it, so memory follows the suite, never the plan.
import { InputError } from '../domain/errors.js';
import type { RequestOptions, Suite, SuiteCase, SuiteThread } from '../domain/suite.js';
import { isKnownModel } from '../protocol/models.js';
import { caseId, formatItemId, threadKey, turnId, type ItemId } from './item-id.js';
import { formatShard, shardOf } from './shard.js';
import { label, modelsFor, type RunModels } from './run-models.js';
import { countSlots, Slots } from './slots.js';
import { questionKey } from '../store/answer-key.js';
import {
  type ExcludedElement,
  type ModelCounts,
  type Plan,
  type PlanCounts,
  type PlanOptions,
  type PlanRequest,
  type PlanUnit,
  type Shard,
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
    if (layer) for (const key in layer) if (layer[key as keyof RequestOptions] !== undefined) merged[key] = layer[key as keyof RequestOptions];
  }
  return merged as RequestOptions;
}

function runModels(suite: Suite, flagModels: readonly string[] | undefined): RunModels {
  const fromFlag = [...new Set((flagModels ?? []).map((m) => m.trim()).filter((m) => m !== ''))];
  const models = fromFlag.length > 0 ? fromFlag : suite.models;
  return models.length > 0 ? { models: [...models], named: true } : { models: [null], named: false };
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

function excluded(kind: 'case' | 'thread', id: string, restriction: readonly string[], run: RunModels): ExcludedElement {
  const reason = `restricted to ${restriction.join(', ')}, none of which this run uses (${run.models.map(label).join(', ')})`;
  return { kind, id, reason };
}

/** One bit per place in the index space: which places a shard holds. */
class Bits {
  private readonly words: Uint32Array;
  constructor(size: number) {
    this.words = new Uint32Array(Math.ceil(size / 32));
  }
  set(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31);
  }
  has(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
}

export { Bits as IndexBits };

/**
 * Items come repeat by repeat, and within a repeat each case (then each thread) on every model
 * side by side: an interrupted run has compared the models on the same questions so far.
 */
export function buildPlan(suite: Suite, options: PlanOptions = {}): Plan {
  const repeat = validateRepeat(options.repeat ?? 1);
  const shard = validateShard(options.shard);
  const run = runModels(suite, options.models);
  const left: ExcludedElement[] = [];
  const slots = Slots.of(suite, run, (id, restriction) => left.push(excluded('case', id, restriction, run)));
  for (const entry of suite.threads) if (entry.models && modelsFor(entry.models, run).length === 0) left.push(excluded('thread', entry.id, entry.models, run));
  const perRepeat = slots.size;
  const space = perRepeat * repeat;
  const flags = options.defaults;
  const caseCount = suite.cases.length;

  const optionsOf = optionsMerger(suite, flags);
  const unitAtSpace = (index: number): PlanUnit => {
    const r = Math.floor(index / perRepeat) + 1;
    const slot = index - (r - 1) * perRepeat;
    const e = slots.entryAt(slot);
    const model = slots.modelAt(slot);
    if (e < caseCount) return caseUnit(suite.cases.at(e)!, model, r, index, suite, optionsOf);
    return threadUnit(suite.threads[e - caseCount]!, model, r, index, suite, optionsOf);
  };
  const keyOf = (index: number): string => {
    const r = Math.floor(index / perRepeat) + 1;
    const slot = index - (r - 1) * perRepeat;
    const e = slots.entryAt(slot);
    const model = label(slots.modelAt(slot));
    return formatItemId(e < caseCount ? caseId(suite.cases.at(e)!.id, model, r) : threadKey(suite.threads[e - caseCount]!.id, model, r));
  };
  // A shard is one hashing pass over the space, kept as bits: 1 bit per place, not an item list.
  let members: Bits | null = null;
  if (shard) {
    members = new Bits(space);
    for (let i = 0; i < space; i += 1) if (shardOf(keyOf(i), shard.count) === shard.index) members.set(i);
  }
  const inPlan = (index: number): boolean => Number.isInteger(index) && index >= 0 && index < space && (members === null || members.has(index));
  const entryIndex = lazyEntryIndex(suite);

  const all = slots.labels();
  // The suite's own unknown models are already in suite.warnings, with their line.
  const warnings = (options.models ?? [])
    .filter((model) => model.trim() !== '' && !isKnownModel(model.trim()))
    .map((model) => `--models: unknown model "${model.trim()}"; it will be sent as written`);
  const plan: Plan = {
    suite: { name: suite.name, path: suite.path, sha256: suite.sha256 },
    models: all,
    repeat,
    shard,
    space,
    // Counted from the slots: no unit is built and no case read again.
    counts: members ? countSlots(slots, suite, places(space, inPlan)) : repeatCounts(countSlots(slots, suite, places(perRepeat, () => true)), repeat),
    units: () => iterate(space, inPlan, unitAtSpace),
    unitAt: (index) => (inPlan(index) ? unitAtSpace(index) : null),
    indexOf: (id) => {
      if (id.kind === 'turn' || id.kind === 'create' || id.cycle !== 1 || id.repeat > repeat) return null;
      const e = id.kind === 'case' ? entryIndex().cases.get(id.case_id) : entryIndex().threads.get(id.thread_id);
      if (e === undefined) return null;
      const position = slots.modelsOf(e).findIndex((m) => label(m) === id.model);
      if (position < 0) return null;
      const index = (id.repeat - 1) * perRepeat + slots.firstSlot(e) + position;
      return inPlan(index) ? index : null;
    },
    excluded: left,
    warnings,
  };
  return plan;
}

function* places(end: number, keep: (index: number) => boolean): IterableIterator<number> {
  for (let i = 0; i < end; i += 1) if (keep(i)) yield i;
}

function* iterate(end: number, keep: (index: number) => boolean, at: (index: number) => PlanUnit): IterableIterator<PlanUnit> {
  for (let i = 0; i < end; i += 1) if (keep(i)) yield at(i);
}

/** Case id → entry, thread id → entry (threads after cases); built only when an id is looked up (resume). */
function lazyEntryIndex(suite: Suite): () => { cases: Map<string, number>; threads: Map<string, number> } {
  let index: { cases: Map<string, number>; threads: Map<string, number> } | null = null;
  return () => {
    if (index === null) {
      const cases = new Map<string, number>();
      let i = 0;
      for (const c of suite.cases) cases.set(c.id, i++);
      index = { cases, threads: new Map(suite.threads.map((t, k) => [t.id, suite.cases.length + k])) };
    }
    return index;
  };
}

/**
 * A request's options: the suite's defaults, its own, the flags'. Most cases and turns have none of
 * their own, and share one merged object (frozen: nothing writes a request's options); merging per
 * request showed in a load test's profile of the runner.
 */
function optionsMerger(suite: Suite, flags: RequestOptions | undefined): (own: RequestOptions | undefined) => RequestOptions {
  const shared = Object.freeze(mergeOptions(suite.defaults, flags));
  return (own) => (own === undefined || hasNoKeys(own) ? shared : mergeOptions(suite.defaults, own, flags));
}

function hasNoKeys(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

/** A request's optional fields, set in place (not spread from fresh objects, per request). */
function withOptionalFields(request: PlanRequest, entry: SuiteCase | SuiteThread, suite: Suite): PlanRequest {
  if (entry.expect_fail !== undefined) request.expected_failure = entry.expect_fail;
  if (entry.tags?.length) request.tags = entry.tags;
  const rule = entry.repeat_pass ?? suite.repeat_pass;
  if (rule !== undefined) request.repeat_pass = rule.k;
  return request;
}

function caseUnit(entry: SuiteCase, model: string | null, repeat: number, index: number, suite: Suite, options: OptionsOf): PlanUnit {
  const id: ItemId = caseId(entry.id, label(model), repeat);
  const request: PlanRequest = {
    id, case_id: entry.id, thread_id: null, turn: null, model: label(model), request_model: model, repeat,
    prompt: entry.prompt, options: options(entry.options), checks: entry.assert,
  };
  request.question_key = questionKey(request, null);
  if (entry.score_threshold !== undefined) request.score_threshold = entry.score_threshold;
  const unit: PlanUnit = { kind: 'case', index, request: withOptionalFields(request, entry, suite) };
  if (entry.weight !== undefined) unit.weight = entry.weight;
  return unit;
}

type OptionsOf = ReturnType<typeof optionsMerger>;

function threadUnit(entry: SuiteThread, model: string | null, repeat: number, index: number, suite: Suite, options: OptionsOf): PlanUnit {
  const unit: PlanUnit = {
    kind: 'thread',
    index,
    key: threadKey(entry.id, label(model), repeat),
    thread_id: entry.id,
    model: label(model),
    repeat,
    turns: threadTurns(entry, model, repeat, suite, options),
  };
  if (entry.name !== undefined) unit.name = entry.name;
  if (entry.weight !== undefined) unit.weight = entry.weight;
  if (entry.think_time !== undefined) unit.think_time = entry.think_time;
  return unit;
}

/** A thread's turns as requests; each turn's question key chains the turns before it (a thread is matched whole). */
function threadTurns(entry: SuiteThread, model: string | null, repeat: number, suite: Suite, options: OptionsOf): PlanRequest[] {
  let earlier: string | null = null;
  return entry.turns.map((turn) => {
    const request: PlanRequest = {
      id: turnId(entry.id, turn.turn, label(model), repeat), case_id: null, thread_id: entry.id, turn: turn.turn,
      model: label(model), request_model: model, repeat,
      prompt: turn.prompt, options: options(turn.options), checks: turn.assert,
    };
    earlier = questionKey(request, earlier);
    request.question_key = earlier;
    return withOptionalFields(request, entry, suite);
  });
}

/** The model label of a unit. */
export const unitModel = (unit: PlanUnit): string => (unit.kind === 'case' ? unit.request.model : unit.model);

/** The repeat a unit belongs to (1-based). */
export const unitRepeat = (unit: PlanUnit): number => (unit.kind === 'case' ? unit.request.repeat : unit.repeat);

/** A unit's id as written: the case item's id, or the conversation's thread key (what `--shard` hashes). */
export const unitKeyOf = (unit: PlanUnit): string => formatItemId(unit.kind === 'case' ? unit.request.id : unit.key);

/** Requests a unit sends: one for a case, one per turn for a thread (creating its conversation not counted). */
export const requestsOf = (unit: PlanUnit): number => (unit.kind === 'case' ? 1 : unit.turns.length);

export function countUnits(units: Iterable<PlanUnit>): PlanCounts {
  const counts: PlanCounts = { items: 0, cases: 0, threads: 0, turns: 0, requests: 0, per_model: Object.create(null) as Record<string, ModelCounts> };
  for (const unit of units) {
    const perModel = (counts.per_model[unitModel(unit)] ??= { items: 0, cases: 0, threads: 0, requests: 0 });
    const requests = requestsOf(unit);
    counts.items += 1;
    perModel.items += 1;
    perModel.requests += requests;
    counts.requests += requests;
    if (unit.kind === 'case') {
      counts.cases += 1;
      perModel.cases += 1;
    } else {
      counts.threads += 1;
      counts.turns += unit.turns.length;
      perModel.threads += 1;
    }
  }
  return counts;
}

function repeatCounts(one: PlanCounts, repeat: number): PlanCounts {
  const per_model = Object.create(null) as Record<string, ModelCounts>;
  for (const [model, c] of Object.entries(one.per_model)) {
    per_model[model] = { items: c.items * repeat, cases: c.cases * repeat, threads: c.threads * repeat, requests: c.requests * repeat };
  }
  return {
    items: one.items * repeat, cases: one.cases * repeat, threads: one.threads * repeat, turns: one.turns * repeat,
    requests: one.requests * repeat, per_model,
  };
}

/** The same plan narrowed to chosen units (an estimate's sample); places in the space are kept. */
export function narrowPlan(plan: Plan, chosen: readonly PlanUnit[]): Plan {
  const byIndex = new Map(chosen.map((unit) => [unit.index, unit]));
  const models = plan.models.filter((m) => chosen.some((u) => unitModel(u) === m));
  return {
    ...plan,
    models,
    counts: countUnits(chosen),
    units: () => chosen.values(),
    unitAt: (index) => byIndex.get(index) ?? null,
    indexOf: (id) => {
      const index = plan.indexOf(id);
      return index !== null && byIndex.has(index) ? index : null;
    },
  };
}
