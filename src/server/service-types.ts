// The socket-free request and response of the reference service's core (see app.ts), and its shared state.
import type { CapacityModel } from './capacity.js';
import type { ConversationStore } from './conversations.js';
import type { CreditAccounts } from './credit-accounts.js';
import type { ModelProfile } from './model-profiles.js';
import type { ResolvedServiceOptions } from './options.js';
import type { PauseFault } from './pause.js';
import type { Random } from './random.js';
import type { Replay } from './replay.js';
import type { KnowledgeIndex } from './retrieval.js';
import type { Workspace } from './workspace.js';

export interface ServiceRequest {
  method: string;
  /** Path and query, e.g. `/api/boards?api_key=…`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: string | Uint8Array;
  /** Aborts when the client goes away, so delays and streams stop early. */
  signal?: AbortSignal;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  /** A complete body; absent when `stream` is set. */
  body?: string;
  /** A streamed body; it may throw StreamCutError, after which the connection must be destroyed. */
  stream?: AsyncIterable<Uint8Array>;
  /** Fault injection: send only this many bytes of `body`, then destroy the connection. */
  cutAfterBytes?: number;
}

/** Everything a handler needs: the loaded workspace and the service's mutable state. */
export interface ServiceContext {
  options: ResolvedServiceOptions;
  workspace: Workspace;
  accounts: CreditAccounts;
  conversations: ConversationStore;
  profiles: Map<string, ModelProfile>;
  /** Knowledge index per chat id. */
  indexes: Map<string, KnowledgeIndex>;
  random: { latency: Random; faults: Random; split: Random };
  inFlight: { answers: number };
  /** Per-model generation slots and queues. */
  capacity: CapacityModel;
  /** The service-wide pause fault (never paused unless configured). */
  pause: PauseFault;
  /** `serve --from-run`: answers come from this recording, not from the knowledge documents. */
  replay?: Replay;
}
