// Wire encodings of a streamed answer: AI SDK UI-message SSE, AI SDK data stream, OpenAI SSE, NDJSON, plain text.
import { SSE_DONE, type StreamDialect } from '../protocol/index.js';

/** The pieces of one streamed answer, each already a complete frame of the dialect. */
export interface StreamEncoder {
  contentType: string;
  extraHeaders: Record<string, string>;
  /** A keep-alive the client must ignore; null where the dialect has none. */
  ping(): string | null;
  /** Sent as soon as the stream opens, before the model has produced anything. */
  open(): string[];
  /** Sent with the first text. */
  textStart(): string[];
  delta(text: string): string;
  finish(): string[];
  /** The usage chunk; `creditsRemaining` only when the service is told to add it (option usageRemaining). */
  usage(creditsUsed: number, creditsRemaining?: number): string | null;
  close(): string[];
}

const TEXT_ID = 'text-0';

/** The documented usage chunk, with credits_remaining beside credits_used only when asked for. */
function usageChunk(credits_used: number, credits_remaining: number | undefined): Record<string, unknown> {
  return credits_remaining === undefined ? { type: 'usage', credits_used } : { type: 'usage', credits_used, credits_remaining };
}

function sse(eol: string): (payload: unknown) => string {
  return (payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}${eol}${eol}`;
}

function uiSse(eol: string): StreamEncoder {
  const frame = sse(eol);
  return {
    contentType: 'text/event-stream; charset=utf-8',
    extraHeaders: { 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1' },
    ping: () => `: ping${eol}${eol}`,
    open: () => [frame({ type: 'start' })],
    textStart: () => [frame({ type: 'text-start', id: TEXT_ID })],
    delta: (delta) => frame({ type: 'text-delta', id: TEXT_ID, delta }),
    finish: () => [frame({ type: 'text-end', id: TEXT_ID }), frame({ type: 'finish' })],
    usage: (credits_used, credits_remaining) => frame(usageChunk(credits_used, credits_remaining)),
    close: () => [frame(SSE_DONE)],
  };
}

function ndjson(eol: string): StreamEncoder {
  const line = (payload: unknown): string => `${JSON.stringify(payload)}${eol}`;
  return {
    contentType: 'application/x-ndjson; charset=utf-8',
    extraHeaders: {},
    ping: () => null,
    open: () => [line({ type: 'start' })],
    textStart: () => [line({ type: 'text-start', id: TEXT_ID })],
    delta: (delta) => line({ type: 'text-delta', id: TEXT_ID, delta }),
    finish: () => [line({ type: 'text-end', id: TEXT_ID }), line({ type: 'finish' })],
    usage: (credits_used, credits_remaining) => line(usageChunk(credits_used, credits_remaining)),
    close: () => [],
  };
}

function dataStream(eol: string): StreamEncoder {
  return {
    contentType: 'text/plain; charset=utf-8',
    extraHeaders: { 'x-vercel-ai-data-stream': 'v1' },
    ping: () => null,
    open: () => [],
    textStart: () => [],
    delta: (delta) => `0:${JSON.stringify(delta)}${eol}`,
    finish: () => [`d:${JSON.stringify({ finishReason: 'stop' })}${eol}`],
    usage: (credits_used, credits_remaining) => `2:${JSON.stringify([usageChunk(credits_used, credits_remaining)])}${eol}`,
    close: () => [],
  };
}

function openAiSse(eol: string): StreamEncoder {
  const frame = sse(eol);
  return {
    contentType: 'text/event-stream; charset=utf-8',
    extraHeaders: { 'cache-control': 'no-cache' },
    ping: () => `: ping${eol}${eol}`,
    open: () => [],
    textStart: () => [],
    delta: (content) => frame({ choices: [{ index: 0, delta: { content } }] }),
    finish: () => [frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })],
    usage: (credits_used, credits_remaining) => frame(usageChunk(credits_used, credits_remaining)),
    close: () => [frame(SSE_DONE)],
  };
}

function plainText(): StreamEncoder {
  return {
    contentType: 'text/plain; charset=utf-8',
    extraHeaders: {},
    ping: () => null,
    open: () => [],
    textStart: () => [],
    delta: (text) => text,
    finish: () => [],
    usage: () => null,
    close: () => [],
  };
}

const ENCODERS: Record<StreamDialect, (eol: string) => StreamEncoder> = {
  'ui-sse': uiSse,
  'data-stream': dataStream,
  'openai-sse': openAiSse,
  ndjson,
  text: plainText,
};

export function createEncoder(dialect: StreamDialect, crlf: boolean): StreamEncoder {
  return ENCODERS[dialect](crlf ? '\r\n' : '\n');
}
