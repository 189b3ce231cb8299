// The shapes assertions work on: what is checked, what a check may call, what a handler is.
import type { CheckResult } from '../domain/sample.js';
import type { CheckSpec, CheckType } from '../domain/suite.js';

/** The answer a check looks at. Nulls mean the value is unknown (no content, no usage chunk). */
export interface CheckSubject {
  text: string;
  ttfc_ms: number | null;
  latency_ms: number | null;
  credits_used: number | null;
}

export interface JudgeRequest {
  prompt: string;
  chat_id?: string;
  board_id?: string;
  model?: string;
}

export interface JudgeReply {
  text: string;
  credits_used: number | null;
}

/** What checks may reach outside themselves: a judge asks the service, `similar` may ask for embeddings. */
export interface CheckPorts {
  judge?: (request: JudgeRequest) => Promise<JudgeReply>;
  /** Embedding vectors of the texts, in order (an OpenAI-compatible /v1/embeddings): `similar` uses them when given. */
  embed?: (texts: string[]) => Promise<number[][]>;
}

/**
 * The spec of one check type. CheckSpec groups several types per member (`contains | regex | …`
 * share `value: string`), so a plain Extract finds nothing; this narrows a member to one type.
 */
export type SpecOf<K extends CheckType> = CheckSpec extends infer S
  ? S extends { type: infer T }
    ? K extends T
      ? Omit<S, 'type'> & { type: K }
      : never
    : never
  : never;

export type CheckHandler<K extends CheckType = CheckType> = (
  spec: SpecOf<K>,
  subject: CheckSubject,
  ports: CheckPorts,
) => CheckResult | Promise<CheckResult>;

/** One handler per check type: the compiler refuses a registry that misses a kind. */
export type CheckRegistry = { [K in CheckType]: CheckHandler<K> };
