// What one answer looked like on the wire, on the monotonic clock.
import type { StreamDialect } from '../protocol/index.js';

/** Monotonic marks (performance.now() ms) of one answer. Null where the event did not happen. */
export interface AnswerMarks {
  sentAt: number;
  headersAt: number | null;
  firstChunkAt: number | null;
  lastChunkAt: number | null;
  finishAt: number | null;
  usageAt: number | null;
  endAt: number;
}

export interface ContentChunk {
  text: string;
  /** performance.now() ms when the bytes that completed this chunk arrived. */
  atMs: number;
}

export interface AnswerResult {
  status: number;
  text: string;
  streamed: boolean;
  dialect: StreamDialect | 'json';
  chunks: ContentChunk[];
  creditsUsed: number | null;
  creditsRemaining: number | null;
  /** A reported credit value not believed (negative, not finite, absurdly large), as seen; null when fine. */
  creditsInvalid?: string;
  /** A stream carried the finish event. Always true for a JSON answer. */
  finished: boolean;
  marks: AnswerMarks;
  /** Attempts the retry layer made for it (client/retry.ts), set only when more than one. */
  attempts?: number;
}

/** What a failure knew before it failed: the runner records it beside the error. */
export interface PartialAnswer {
  status: number | null;
  text: string;
  chunks: ContentChunk[];
  marks: AnswerMarks;
}

