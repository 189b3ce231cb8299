// Decodes any byte source (a file, a fetch body, a test fixture) into timed answer events.
import { StreamError } from '../domain/index.js';
import type { StreamDialect } from '../protocol/index.js';
import type { DecodedEvent } from './decode/events.js';
import { ResponseDecoder } from './decode/response-decoder.js';

export interface DecodeStreamOptions {
  contentType?: string | null;
  /** Lower-cased response header names, as undici gives them. */
  headers?: Record<string, string | string[] | undefined>;
  dialect?: 'auto' | StreamDialect;
  /** Clock for `atMs`; default performance.now. */
  now?: () => number;
}

export type DecodedStreamEvent =
  | { kind: 'chunk'; text: string; atMs: number }
  | { kind: 'finish'; finishReason?: string; atMs: number }
  | { kind: 'usage'; creditsUsed: number | null; creditsRemaining?: number; creditsInvalid?: string; atMs: number }
  | { kind: 'body'; raw: string; atMs: number };

function timed(event: DecodedEvent, atMs: number): DecodedStreamEvent {
  switch (event.kind) {
    case 'text':
      return { kind: 'chunk', text: event.text, atMs };
    case 'error':
      throw new StreamError(`the stream carried an error: ${event.message}`);
    default:
      return { ...event, atMs };
  }
}

/** Throws StreamError on an error chunk, or when a stream (not a JSON body) ends without finish. */
export async function* decodeStream(bytes: AsyncIterable<Uint8Array>, options: DecodeStreamOptions = {}): AsyncGenerator<DecodedStreamEvent> {
  const now = options.now ?? (() => performance.now());
  const decoder = new ResponseDecoder({
    contentType: options.contentType ?? null,
    headers: options.headers ?? {},
    streamingRequested: true,
    dialect: options.dialect ?? 'auto',
  });
  let finished = false;
  const emit = function* (events: DecodedEvent[], atMs: number): Generator<DecodedStreamEvent> {
    for (const event of events) {
      if (event.kind === 'finish' || event.kind === 'body') finished = true;
      yield timed(event, atMs);
    }
  };
  for await (const chunk of bytes) {
    const atMs = now();
    yield* emit(decoder.push(chunk), atMs);
  }
  yield* emit(decoder.end(), now());
  if (!finished) throw new StreamError(`the ${decoder.dialect ?? 'stream'} stream ended without its finish event`);
}
