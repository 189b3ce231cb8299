// A grader: who answers a model-graded check's question. Kinds are a typed registry (graders/index.ts).
import type { GraderSpec } from '../domain/suite.js';

export type GraderKind = GraderSpec['kind'];

export interface GraderAnswer {
  text: string;
  /** Service credits the grading spent (a chat of the service); null when none or unreported. */
  credits_used: number | null;
  /** Tokens an outside grader reported (prompt + completion); null when none. */
  tokens: number | null;
}

export interface Grader {
  readonly kind: GraderKind;
  /** `chat chatNode-… (gpt-4o-mini)`, `openai http://…/v1 llama3`: named in results and reports. */
  readonly label: string;
  /** The model that grades; null when the service's default model does. */
  readonly model: string | null;
  /** The same grader asking another model (a check's own `model:`). */
  withModel(model: string): Grader;
  ask(prompt: string, signal: AbortSignal): Promise<GraderAnswer>;
  /** Once, before the run sends anything: the chat is listed, the endpoint answers (throws otherwise). */
  preflight(signal: AbortSignal): Promise<void>;
}
