// Dialect-neutral events a stream decoder produces; the exchange stamps them with arrival times.
import type { StreamDialect } from '../../protocol/index.js';

export type DecodedEvent =
  | { kind: 'text'; text: string }
  | { kind: 'finish'; finishReason?: string }
  | { kind: 'usage'; creditsUsed: number | null; creditsRemaining?: number; creditsInvalid?: string }
  | { kind: 'error'; message: string }
  /** A whole non-stream body (JSON answer or list); the exchange validates it against a schema. */
  | { kind: 'body'; raw: string; /** The body parsed, when the decoder already parsed it (it is parsed once). */ value?: unknown };

/** What a decoded response turned out to be: one of the stream dialects, or a plain JSON body. */
export type AnswerDialect = StreamDialect | 'json';

/** Turns decoded text (never bytes: UTF-8 is handled once, upstream) into events. */
export interface DialectDecoder {
  readonly dialect: AnswerDialect;
  feed(text: string): DecodedEvent[];
  /** The body ended: flush what is buffered. Throws a typed KbError on a malformed tail. */
  end(): DecodedEvent[];
}

/** A stream's first text may carry a byte-order mark; line-based dialects drop it. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
