// Which requests a credit sample sends: per model at most N, cases and thread turns in their
// planned proportions, picked evenly across the suite (deterministic: the same sample every time).
import { unitKeyOf, unitModel, unitRepeat } from '../plan/build.js';
import type { PlanCase as CaseItem, Plan, PlanThread as ThreadItem, PlanUnit as WorkItem } from '../plan/types.js';

/** k indices of 0…count-1, one from the middle of each of k equal stretches: spread over the whole suite. */
export function spreadIndices(count: number, k: number, offset = 0.5): number[] {
  const picks = Math.max(0, Math.min(count, k));
  return Array.from({ length: picks }, (_, i) => Math.floor(((i + offset) * count) / picks));
}

/** How many of a model's sampled requests go to thread turns: their planned share, at least two when threads exist. */
function turnBudget(cases: number, threads: readonly ThreadItem[], cap: number): number {
  const turns = threads.reduce((a, t) => a + t.turns.length, 0);
  if (turns === 0) return 0;
  if (cases === 0) return Math.min(cap, turns);
  const longest = Math.max(...threads.map((t) => t.turns.length));
  // Two turns of one conversation are what shows how a turn's cost grows with the history before it.
  const share = Math.max(Math.round((cap * turns) / (cases + turns)), Math.min(2, longest, cap - 1));
  return Math.min(share, cap - 1, turns);
}

/**
 * Conversations spread over the suite, their turns dealt round-robin so each gets its first turns
 * (a thread's prefix is a valid conversation); threads left over take what budget remains. A suite
 * of threads alone wants several of them: each is one draw, and one draw shows no spread.
 */
function pickThreads(threads: readonly ThreadItem[], budget: number, minThreads: number, offset: number): ThreadItem[] {
  if (budget <= 0 || threads.length === 0) return [];
  const meanLength = threads.reduce((a, t) => a + t.turns.length, 0) / threads.length;
  const k = Math.min(threads.length, Math.max(1, minThreads, Math.round(budget / meanLength)));
  const first = spreadIndices(threads.length, k, offset);
  const rest = threads.map((_, i) => i).filter((i) => !first.includes(i));
  const taken = new Map<number, number>();
  let left = budget;
  for (const group of [first, rest]) {
    for (let dealt = true; left > 0 && dealt; ) {
      dealt = false;
      for (const i of group) {
        const have = taken.get(i) ?? 0;
        if (left === 0 || have >= threads[i]!.turns.length) continue;
        taken.set(i, have + 1);
        left -= 1;
        dealt = true;
      }
    }
  }
  return [...taken.entries()].sort(([a], [b]) => a - b).map(([i, turns]) => {
    const thread = threads[i]!;
    return turns === thread.turns.length ? thread : { ...thread, turns: thread.turns.slice(0, turns) };
  });
}

/** How many of a model's sampled cases are the linking cases every model is asked: a quarter, at least one. */
export function linkCount(sampledCases: number): number {
  return sampledCases === 0 ? 0 : Math.max(1, Math.round(sampledCases / 4));
}

function sampleOfModel(items: readonly WorkItem[], cap: number, offset: number, linked: readonly string[] | null): WorkItem[] {
  const cases = items.filter((i): i is CaseItem => i.kind === 'case');
  const threads = items.filter((i): i is ThreadItem => i.kind === 'thread');
  const requests = cases.length + threads.reduce((a, t) => a + t.turns.length, 0);
  if (requests <= cap) return [...items];
  const turns = turnBudget(cases.length, threads, cap);
  const wanted = cap - turns;
  // The linking cases (chosen by the first model) first, then this model's own spread of the rest.
  const shared = (linked ?? []).flatMap((id) => cases.filter((c) => (c.request.case_id ?? '') === id)).slice(0, linked ? linkCount(wanted) : 0);
  const rest = cases.filter((c) => !shared.includes(c));
  const own = spreadIndices(rest.length, wanted - shared.length, offset).map((i) => rest[i]!);
  const chosenCases = cases.filter((c) => shared.includes(c) || own.includes(c));
  return [...chosenCases, ...pickThreads(threads, turns, cases.length === 0 ? Math.floor(turns / 2) : 1, offset)];
}

/** `--sample N`: requests per model; `--sample P%`: a share of each model's distinct items (repeats not counted), at least two. */
export type SampleSize = { perModel: number } | { percent: number };

/** The requests a model's sample may send, from its distinct items (cases and thread turns of one repeat). */
export function sampleCap(size: SampleSize, distinctRequests: number): number {
  if ('perModel' in size) return size.perModel;
  return Math.min(distinctRequests, Math.max(2, Math.ceil((size.percent / 100) * distinctRequests - 1e-9)));
}

/**
 * The sample of a plan (one repeat, no shard): every case and thread once per model while that
 * fits in its cap, else an even spread of cases and conversations, in plan order. Each model's spread
 * starts at its own offset, so the models sample mostly different items (together they see more of
 * the suite), except a quarter of the cases (at least one), the linking cases, which every model is
 * asked: what they cost on two models measures the ratio of those models' prices, so an item seen on
 * one model informs the forecast of every other (item-forecast.ts, the cross-model ratio).
 */
export function selectSample(plan: Plan, size: SampleSize | number): WorkItem[] {
  const wanted: SampleSize = typeof size === 'number' ? { perModel: size } : size;
  // An estimate asks of the first repeat only, which is a suite's size, not a plan's.
  const firstRepeat: WorkItem[] = [];
  for (const unit of plan.units()) {
    if (unitRepeat(unit) > 1) break;
    firstRepeat.push(unit);
  }
  const chosen = new Map<string, WorkItem>();
  let linked: string[] | null = null;
  plan.models.forEach((model, index) => {
    const items = firstRepeat.filter((i) => unitModel(i) === model);
    const distinct = items.reduce((a, i) => a + (i.kind === 'case' ? 1 : i.turns.length), 0);
    const offset = (index + 0.5) / plan.models.length;
    const picked = sampleOfModel(items, sampleCap(wanted, distinct), offset, linked);
    if (linked === null) {
      const cases = picked.flatMap((i) => (i.kind === 'case' ? [i.request.case_id ?? ''] : []));
      // The first model's cases, an even spread of them first: the others take the linking ones in this order.
      const spread = spreadIndices(cases.length, linkCount(cases.length)).map((i) => cases[i]!);
      linked = [...new Set([...spread, ...cases])];
    }
    for (const item of picked) chosen.set(unitKeyOf(item), item);
  });
  return firstRepeat.flatMap((item) => {
    const picked = chosen.get(unitKeyOf(item));
    return picked ? [picked] : [];
  });
}
