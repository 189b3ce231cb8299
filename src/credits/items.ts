// The distinct items a credit forecast reasons about (a case, or a thread turn, on one model), matched
// between a plan and earlier results by id and a hash of the prompts, so an edited question is new.
import { createHash } from 'node:crypto';
import type { Sample } from '../domain/sample.js';
import { unitModel } from '../plan/build.js';
import { formatItemId, parseItemId, threadKeyOf } from '../plan/item-id.js';
import type { Plan, PlanRequest } from '../plan/types.js';
import type { PopulationItem } from './item-forecast.js';
import { fromUnits, sampleCreditUnits } from './units.js';

const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

/**
 * A case's key is its id and prompt; a turn's is its thread, position and the prompts of every turn up
 * to it (an edited earlier turn changes the history this one carries). Results hold the prompt sent,
 * not the additional context, so the context is known input size but not part of the match.
 */
export function caseItemKey(caseId: string, prompt: string): string {
  return `case:${caseId}:${hash(prompt)}`;
}

export function turnItemKey(threadId: string, turn: number, promptChain: string): string {
  return `turn:${threadId}#${turn}:${hash(promptChain)}`;
}

const chainOf = (previous: string, prompt: string): string => hash(`${previous}\u0000${prompt}`);
const inputOf = (request: PlanRequest): number => request.prompt.length + (request.options.additional_context?.length ?? 0);

/** Every distinct item of the plan with what is known of it before sending, and how often the plan sends it. */
export function populationOf(plan: Plan): PopulationItem[] {
  const items = new Map<string, PopulationItem>();
  const add = (model: string, key: string, inputChars: number, turn: number | null): void => {
    const id = `${model}\u0000${key}`;
    const known = items.get(id);
    if (known) known.repeats += 1;
    else items.set(id, { model, key, inputChars, turn, repeats: 1 });
  };
  for (const unit of plan.units()) {
    if (unit.kind === 'case') {
      add(unitModel(unit), caseItemKey(unit.request.case_id ?? '', unit.request.prompt), inputOf(unit.request), null);
      continue;
    }
    let chain = '';
    let history = 0;
    for (const turn of unit.turns) {
      chain = chainOf(chain, turn.prompt);
      history += inputOf(turn);
      add(unit.model, turnItemKey(unit.thread_id, turn.turn ?? 1, chain), history, turn.turn ?? 1);
    }
  }
  return [...items.values()];
}

/** Running count, mean and squared deviations of one item's observed costs (Welford). */
export interface ItemTally {
  model: string;
  key: string;
  count: number;
  mean: number;
  ss: number;
}

/** Tallies what each distinct item cost in results: memory per distinct item and per open conversation. */
export class ItemCostTally {
  private readonly tallies = new Map<string, ItemTally>();
  private readonly chains = new Map<string, string>();

  add(sample: Sample): void {
    if (sample.endpoint === 'create') return;
    let key: string | null = null;
    if (sample.case_id !== null) key = caseItemKey(sample.case_id, sample.prompt ?? '');
    else if (sample.thread_id !== null && sample.turn !== null) {
      const id = parseItemId(sample.item_id);
      const thread = id ? threadKeyOf(id) : null;
      const instance = thread ? formatItemId(thread) : `${sample.model}\u0000${sample.thread_id}\u0000${sample.repeat}`;
      const chain = chainOf(sample.turn === 1 ? '' : (this.chains.get(instance) ?? ''), sample.prompt ?? '');
      this.chains.set(instance, chain);
      key = turnItemKey(sample.thread_id, sample.turn, chain);
    }
    if (key === null || sample.outcome !== 'ok' || sample.credits_used === null) return;
    this.record(sample.model, key, fromUnits(sampleCreditUnits(sample)));
  }

  record(model: string, key: string, credits: number): void {
    const id = `${model}\u0000${key}`;
    const t = this.tallies.get(id) ?? { model, key, count: 0, mean: 0, ss: 0 };
    t.count += 1;
    const delta = credits - t.mean;
    t.mean += delta / t.count;
    t.ss += delta * (credits - t.mean);
    this.tallies.set(id, t);
  }

  entries(): ItemTally[] {
    return [...this.tallies.values()];
  }
}
