import type { ThinkTime } from '../domain/suite.js';
// What a run will do: an index space of units (a case, or a whole thread) computed when asked for.
import type { CheckSpec, RequestOptions } from '../domain/suite.js';
import type { ItemId } from './item-id.js';

/** The model label of an item when the suite and flags name none: the service's default model. */
export const DEFAULT_MODEL_LABEL = 'default';

/**
 * One request, from the plan to its result line: the runner sends it, the sample builder reads it.
 * There is no other shape of a request in between.
 */
export interface PlanRequest {
  id: ItemId;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  /** The label results carry (`Sample.model`): the model sent, or `default`. */
  model: string;
  /** The `model` parameter to send; null = leave it out and let the service choose. */
  request_model: string | null;
  /** 1-based. */
  repeat: number;
  prompt: string;
  /** suite defaults ← case or turn options ← flag overrides (see build.ts). */
  options: RequestOptions;
  checks: CheckSpec[];
  /** promptfoo's test `threshold`: the item passes when its checks' weighted score reaches it. */
  score_threshold?: number;
  /** The question's content key (store/answer-key.ts), carried to the result line: a thread's turn chains its earlier turns. */
  question_key?: string;
  /** The suite marks its case or thread as expected to fail, with this reason; carried to the result line. */
  expected_failure?: string;
  /** `repeat_pass: k/n`: k, the passed repeats its case × model needs; absent when all must pass. */
  repeat_pass?: number;
  /** The case's or thread's tags; absent when it has none. */
  tags?: readonly string[];
  /**
   * Open loop only: when this request was meant to start (monotonic ms), so lateness and the
   * latency from the intended start can be reported. Null for the later turns of a thread, which
   * follow their previous turn rather than the schedule.
   */
  intended_at_ms?: number | null;
}

/** One one-time question (endpoint `ask`) on one model, one repeat. */
export interface PlanCase {
  kind: 'case';
  /** Place in the plan's index space (repeat-major, unsharded): what resume marks as done. */
  index: number;
  request: PlanRequest;
  /** The case's `weight` in a weighted traffic mix (absent: 1). */
  weight?: number;
}

/** One conversation: created once (endpoint `create`), then its turns in order. */
export interface PlanThread {
  kind: 'thread';
  index: number;
  /** Names this conversation instance; its `create` line's id derives from it. */
  key: ItemId;
  thread_id: string;
  name?: string;
  model: string;
  repeat: number;
  turns: PlanRequest[];
  /** The thread's `weight` in a weighted traffic mix (absent: 1). */
  weight?: number;
  /** Pause between turns (the thread's or the suite's `think_time`). */
  think_time?: ThinkTime;
  /** Set when resuming: the conversation its finished turns used. */
  conversation_id?: string;
  /**
   * Set when resuming where the conversation did not survive (a fresh embedded service): the
   * finished turns, sent again unrecorded into a new conversation so the next turn has its history.
   */
  replay?: PlanRequest[];
}

export type PlanUnit = PlanCase | PlanThread;

/** `--shard 2/4`: index is 1-based. */
export interface Shard {
  index: number;
  count: number;
}

export interface PlanOptions {
  /** `--models a,b`: replaces the suite's models. */
  models?: readonly string[];
  /** `--repeat K`: every case and thread K times (default 1). */
  repeat?: number;
  shard?: Shard;
  /** Flag overrides (`--stream`, `--method`…): they win over the suite's settings. */
  defaults?: RequestOptions;
}

export interface ModelCounts {
  items: number;
  cases: number;
  threads: number;
  requests: number;
}

export interface PlanCounts {
  /** Work items: one per case item, one per thread instance. */
  items: number;
  cases: number;
  /** Thread instances (conversations to create). */
  threads: number;
  turns: number;
  /** Answers to ask for: case items plus turns (conversation creation not counted). */
  requests: number;
  per_model: Record<string, ModelCounts>;
}

export interface ExcludedElement {
  kind: 'case' | 'thread';
  id: string;
  reason: string;
}

export interface Plan {
  suite: { name: string; path: string; sha256: string };
  /** Model labels of this run, in order. */
  models: string[];
  repeat: number;
  shard: Shard | null;
  counts: PlanCounts;
  /** Size of the unsharded index space (every repeat of every case and thread on its models). */
  space: number;
  /** The units of this plan (its shard, or its narrowed selection) in order, each computed when reached. */
  units(): IterableIterator<PlanUnit>;
  /** The unit at a place in the index space; null when the place is outside this plan. */
  unitAt(index: number): PlanUnit | null;
  /** The place in the index space of a case item or thread key; null when the id is not of this plan. */
  indexOf(id: ItemId): number | null;
  /** Cases and threads left out because none of their models is in this run. */
  excluded: ExcludedElement[];
  /** Non-fatal findings about the flags (an unknown model in --models). */
  warnings: string[];
}
