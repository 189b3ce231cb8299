// What a run will do: work items expanded from a suite, the unit the runner executes and records.
import type { CheckSpec, RequestOptions, SourceLocation } from '../domain/suite.js';

/** The model label of an item when the suite and flags name none: the service's default model. */
export const DEFAULT_MODEL_LABEL = 'default';

interface ModelChoice {
  /** The label results carry (`Sample.model`): the model sent, or `default`. */
  model: string;
  /** The `model` parameter to send; null = leave it out and let the service choose. */
  request_model: string | null;
}

/** One one-time question (endpoint `ask`) on one model, one repeat. */
export interface CaseItem extends ModelChoice {
  kind: 'case';
  item_id: string;
  case_id: string;
  /** 1-based. */
  repeat: number;
  prompt: string;
  /** suite defaults ← case options ← flag overrides (see build.ts). */
  options: RequestOptions;
  checks: CheckSpec[];
  location: SourceLocation;
}

/** One turn of a thread (endpoint `continue`), sent after the previous turn has answered. */
export interface TurnItem {
  item_id: string;
  /** 1-based. */
  turn: number;
  prompt: string;
  options: RequestOptions;
  checks: CheckSpec[];
  location: SourceLocation;
}

/** One conversation: created once (endpoint `create`), then its turns in order. */
export interface ThreadItem extends ModelChoice {
  kind: 'thread';
  /** Names this conversation instance: `thread:<id>|model:<model>|r<repeat>`. */
  thread_key: string;
  thread_id: string;
  name?: string;
  repeat: number;
  turns: TurnItem[];
  location: SourceLocation;
}

export type WorkItem = CaseItem | ThreadItem;

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
  items: WorkItem[];
  counts: PlanCounts;
  /** Cases and threads left out because none of their models is in this run. */
  excluded: ExcludedElement[];
  /** Non-fatal findings about the flags (an unknown model in --models). */
  warnings: string[];
}
