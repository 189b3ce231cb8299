// What the runner sends for one turn or case: the plan's items, flattened to the fields a request needs.
import type { CheckSpec, RequestOptions } from '../domain/suite.js';

export interface RequestSpec {
  item_id: string;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  /** The label results carry: the model asked for, or `default`. */
  model: string;
  /** The `model` parameter sent; null leaves it to the service. */
  request_model: string | null;
  repeat: number;
  prompt: string;
  options: RequestOptions;
  checks: CheckSpec[];
  /**
   * Open loop only: when this request was meant to start (monotonic ms), so lateness and the
   * latency from the intended start can be reported. Null for the later turns of a thread, which
   * follow their previous turn rather than the schedule.
   */
  intended_at_ms?: number | null;
}

/** A thread: one conversation created once, its turns sent in order. */
export interface ThreadSpec {
  /** Set when resuming: the conversation its finished turns used. */
  conversation_id?: string;
  /**
   * Set when resuming where the conversation did not survive (a fresh embedded service): the
   * finished turns, sent again unrecorded into a new conversation so the next turn has its history.
   */
  replay?: RequestSpec[];
  thread_key: string;
  thread_id: string;
  name?: string;
  model: string;
  repeat: number;
  turns: RequestSpec[];
}

export type RunUnit = { kind: 'case'; request: RequestSpec } | { kind: 'thread'; thread: ThreadSpec };
