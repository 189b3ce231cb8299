// The shapes assertions work on: what is checked, what a check may call, what a handler is.
import type { CheckResult } from '../domain/sample.js';
import type { CheckSpec, CheckType } from '../domain/suite.js';

/** The answer a check looks at. Nulls mean the value is unknown (no content, no usage chunk). */
export interface CheckSubject {
  text: string;
  ttfc_ms: number | null;
  latency_ms: number | null;
  credits_used: number | null;
  /** The question asked (answer-relevance and context checks read it). */
  prompt?: string;
  /** The answer's item id (a result line's): --judge-sample draws its share by it. */
  item_id?: string;
}

export interface JudgeRequest {
  prompt: string;
  chat_id?: string;
  board_id?: string;
  model?: string;
}

export interface JudgeReply {
  text: string;
  /** Service credits (a chat grader); null for an outside grader or an unreported cost. */
  credits_used: number | null;
  /** Tokens an outside grader reported. */
  tokens?: number | null;
  /** Which grader answered, for the result line (`chat <id> (<model>)`, `openai <url> <model>`). */
  grader?: string;
}

/** What decides a model-graded verdict: the check type, the grading request (its prompt holds the rubric or reference and the answer) and the votes. */
export interface VerdictKey {
  type: string;
  request: JudgeRequest;
  votes: number;
}

/**
 * Whole verdicts graded before (votes and re-asks included), so an unchanged answer under an
 * unchanged check and grader costs no grader call. Never throws: a store that fails is a miss.
 */
export interface VerdictMemo {
  recall(key: VerdictKey): Promise<CheckResult | undefined>;
  /** Only judged verdicts are kept: a grader that failed is asked again next time. */
  keep(key: VerdictKey, result: CheckResult): Promise<void>;
}

/** What checks may reach outside themselves: a grader, and the suite's knowledge documents. */
export interface CheckPorts {
  judge?: (request: JudgeRequest) => Promise<JudgeReply>;
  /** The grader that will answer a request, named in the result even when it never answered. */
  graderLabel?: (request: JudgeRequest) => string | undefined;
  /** The grader-verdict cache; absent with --no-grader-cache. */
  verdicts?: VerdictMemo;
  /** Passages of the suite's `knowledge:` documents for a question; absent when it names none. */
  passages?: (question: string) => Promise<string[]> | string[];
  /** Embedding vectors of the texts, in order (an OpenAI-compatible /v1/embeddings): `similar` uses them when given. */
  embed?: (texts: string[]) => Promise<number[][]>;
  /** --judge-sample: set when this answer is outside the sampled share: model-graded checks are then not judged, with this reason. */
  notSampled?: string;
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
