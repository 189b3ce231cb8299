// Turns whatever a request threw (undici errors, our abort reasons, decoder errors) into one typed
// KbError, with the phase a timeout hit and the partial answer attached.
import { AbortedError, ConfigError, ConnectionError, HeadersOverflowError, KbError, TimeoutError, type PartialAnswer, type TimeoutPhase } from '../domain/index.js';
import type { AnswerState } from './answer-state.js';
import type { Redactor } from './redact.js';
import type { RequestGuard } from './request-guard.js';

export interface FailureContext {
  label: string;
  guard: RequestGuard;
  state: AnswerState;
  redact: Redactor;
  /** Headers arrived and the body is a whole JSON document (or an error body), not a stream. */
  readingWholeBody: boolean;
  streamingRequested: boolean;
}

const PHASE_WORDS: Record<TimeoutPhase, string> = {
  headers: 'no response headers',
  'first-chunk': 'no content after the headers',
  'mid-stream': 'the stream did not end',
  body: 'the body did not complete',
};

export function timeoutPhase(ctx: FailureContext): TimeoutPhase {
  const { marks, dialect } = ctx.state;
  if (marks.headersAt === null) return 'headers';
  if (ctx.readingWholeBody || dialect === 'json' || (dialect === null && !ctx.streamingRequested)) return 'body';
  return marks.firstChunkAt === null ? 'first-chunk' : 'mid-stream';
}

function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function causeCodeOf(err: unknown): string | undefined {
  const cause = typeof err === 'object' && err !== null ? (err as { cause?: unknown }).cause : undefined;
  return codeOf(cause);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function undiciFailure(err: unknown, ctx: FailureContext): KbError {
  const code = codeOf(err);
  const detail = ctx.redact(messageOf(err));
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new TimeoutError(`${ctx.label}: ${PHASE_WORDS.headers} in time (${code})`, 'headers');
    case 'UND_ERR_BODY_TIMEOUT': {
      const phase = timeoutPhase(ctx);
      return new TimeoutError(`${ctx.label}: ${PHASE_WORDS[phase]} in time (${code})`, phase);
    }
    case 'UND_ERR_HEADERS_OVERFLOW':
      // Not a connection failure: the answer arrived (and may have been charged); its headers were too large to read.
      return new HeadersOverflowError(`${ctx.label}: the answer's headers were larger than the client reads (16 KiB, ${code}); it arrived, so it may have been charged, and is not retried`);
    case 'UND_ERR_ABORTED':
      return new AbortedError(`${ctx.label}: aborted`);
    case 'UND_ERR_INVALID_ARG':
    case 'ERR_INVALID_ARG_TYPE':
    case 'ERR_INVALID_CHAR':
    case 'ERR_INVALID_HTTP_TOKEN':
      return new ConfigError(`${ctx.label}: invalid request: ${detail}`);
    default: {
      // Keep undici's code (UND_ERR_SOCKET) or the system's (ECONNREFUSED); the socket's own
      // code, when undici wrapped it, is the more telling one.
      const causeCode = causeCodeOf(err) ?? code;
      return new ConnectionError(`${ctx.label}: connection failed${causeCode ? ` (${causeCode})` : ''}: ${detail}`, causeCode);
    }
  }
}

/**
 * Decoders quote what they could not read, and a stream may echo the key: the message and stack
 * of any KbError are redacted here, once, whatever threw it.
 */
function redactError(failure: KbError, redact: Redactor): KbError {
  failure.message = redact(failure.message);
  if (failure.stack !== undefined) failure.stack = redact(failure.stack);
  return failure;
}

function redactedPartial(partial: PartialAnswer, redact: Redactor): PartialAnswer {
  return { ...partial, text: redact(partial.text), chunks: partial.chunks.map((chunk) => ({ ...chunk, text: redact(chunk.text) })) };
}

export function toKbError(err: unknown, ctx: FailureContext): KbError {
  let failure: KbError;
  if (ctx.guard.reason === 'timeout') {
    const phase = timeoutPhase(ctx);
    failure = new TimeoutError(`${ctx.label}: ${PHASE_WORDS[phase]} within ${ctx.guard.timeoutMs} ms`, phase);
  } else if (ctx.guard.reason === 'caller') {
    failure = new AbortedError(`${ctx.label}: aborted by the caller`);
  } else if (err instanceof KbError) {
    failure = err;
  } else {
    failure = undiciFailure(err, ctx);
  }
  failure.partial ??= redactedPartial(ctx.state.partial(performance.now()), ctx.redact);
  return redactError(failure, ctx.redact);
}
