// One answer on the wire as undici's dispatch handler: each callback runs where undici parsed the
// bytes, so headers and chunks are stamped as they arrive (not when a stream and an async iterator
// hand them on, a promise hop and a turn of other sockets' work later), and an answer costs no
// Readable, no AsyncResource and no AbortSignal: at thousands of streams at once those were most of
// the harness's own CPU and of its first-chunk error.
import { util, type Dispatcher } from 'undici';
import { StreamError, type AnswerResult } from '../domain/index.js';
import { readCredits, type CreditReading } from './credit-value.js';
import type { DecodedEvent } from './decode/events.js';
import { ResponseDecoder } from './decode/response-decoder.js';
import { toKbError } from './failure.js';
import { httpErrorFor } from './http-errors.js';
import { excerpt } from './redact.js';
import type { GuardAbort } from './request-guard.js';
import { REDACTION_MARGIN_BYTES, type Exchange, type Headers, type StreamEvent } from './exchange-core.js';

/** Where an answer's timed events go: a library consumer of askEvents, or nowhere (the runner). */
export type Emit = ((event: StreamEvent) => void) | null;

const first = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

/** Applies one decoded event to the state, and hands the timed event on when someone listens. */
function apply(ex: Exchange, event: DecodedEvent, atMs: number, emit: Emit): void {
  const state = ex.state;
  switch (event.kind) {
    case 'text':
      state.onText(event.text, atMs);
      emit?.({ kind: 'chunk', text: event.text, atMs });
      return;
    case 'finish': {
      const firstFinish = !state.finished;
      state.onFinish(atMs);
      if (firstFinish) emit?.(event.finishReason === undefined ? { kind: 'finish', atMs } : { kind: 'finish', finishReason: event.finishReason, atMs });
      return;
    }
    case 'usage': {
      const remaining = event.creditsRemaining ?? null;
      state.onUsage(event.creditsUsed, remaining, atMs, event.creditsInvalid ?? null);
      emit?.({ kind: 'usage', creditsUsed: event.creditsUsed, creditsRemaining: remaining, ...(event.creditsInvalid ? { creditsInvalid: event.creditsInvalid } : {}), atMs });
      return;
    }
    case 'error':
      throw new StreamError(`${ex.request.label}: the stream carried an error: ${excerpt(ex.settings.redact(event.message))}`);
    case 'body':
      applyJsonAnswer(ex, event.raw, 'value' in event ? event.value : ex.parseJson(event.raw), atMs, emit);
  }
}

/** A JSON answer is one chunk: first chunk, last chunk, finish, usage and end share one time. */
function applyJsonAnswer(ex: Exchange, raw: string, value: unknown, atMs: number, emit: Emit): void {
  const answer = readAnswer(value);
  if (!answer) throw ex.malformed(raw, 'an answer');
  const { text, creditsUsed: used, creditsRemaining: remaining, invalid } = answer;
  ex.state.onText(text, atMs);
  ex.state.onFinish(atMs);
  ex.state.onUsage(used, remaining, atMs, invalid);
  if (!emit) return;
  emit({ kind: 'chunk', text, atMs });
  emit({ kind: 'finish', atMs });
  emit({ kind: 'usage', creditsUsed: used, creditsRemaining: remaining, ...(invalid ? { creditsInvalid: invalid } : {}), atMs });
}

/**
 * The answer's three fields, checked by hand: this runs once per answer at load-test rates, where a
 * schema library's generic walk showed in the profile. protocol/'s AnswerSchema says the same and
 * is what the tests hold both to.
 */
function readAnswer(value: unknown): ({ text: string } & CreditReading) | null {
  if (typeof value !== 'object' || value === null) return null;
  const { text, credits_used: used, credits_remaining: remaining } = value as Record<string, unknown>;
  // Not an answer at all without its text and both credit fields; bad credit values are kept as invalid.
  if (typeof text !== 'string' || !('credits_used' in value) || !('credits_remaining' in value)) return null;
  return { text, ...readCredits(used, remaining ?? null) };
}

/** A non-2xx body, read up to errorBodyLimitBytes plus a margin, then redacted, then cut. */
class ErrorBody {
  private readonly utf8 = new TextDecoder();
  private text = '';
  private bytes = 0;
  constructor(private readonly capBytes: number) {}

  /** True when the cap is reached: the rest of the body is dropped, and the socket with it. */
  push(chunk: Uint8Array): boolean {
    this.text += this.utf8.decode(chunk.subarray(0, Math.max(0, this.capBytes - this.bytes)), { stream: true });
    this.bytes += chunk.byteLength;
    return this.bytes >= this.capBytes;
  }

  excerpt(ex: Exchange): string {
    const limit = ex.settings.errorBodyLimitBytes;
    // Redact before cutting: cutting first could leave a prefix of the key in the excerpt.
    const redacted = ex.settings.redact(this.text + this.utf8.decode());
    return redacted.length > limit ? `${redacted.slice(0, limit)}…` : redacted;
  }
}

/**
 * undici's (legacy, unwrapped: the cheapest) dispatch handler for one ask/continue answer. It settles
 * once: with the AnswerResult, or with a typed KbError carrying the partial answer.
 */
export class AnswerHandler implements Dispatcher.DispatchHandler {
  private abortRequest: ((err?: Error) => void) | null = null;
  private cancelReason: Error | null = null;
  private decoder: ResponseDecoder | null = null;
  private errorBody: ErrorBody | null = null;
  private headers: Headers = {};
  private settled = false;
  private endAt = 0;

  constructor(
    private readonly ex: Exchange,
    private readonly emit: Emit,
    private readonly resolve: (result: AnswerResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    // Cancelled while it waited for a connection: it never goes out.
    if (this.settled) abort(this.cancelReason ?? undefined);
    else this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (this.settled) return false;
    const atMs = performance.now();
    // 1xx: informational, the answer's own headers follow.
    if (statusCode < 200) return true;
    const ex = this.ex;
    try {
      this.headers = util.parseHeaders(rawHeaders) as Headers;
      ex.state.onHeaders(statusCode, atMs);
      if (statusCode > 299) {
        ex.failure.readingWholeBody = true;
        this.errorBody = new ErrorBody(ex.settings.errorBodyLimitBytes + REDACTION_MARGIN_BYTES);
        return true;
      }
      const decoder = new ResponseDecoder({
        contentType: first(this.headers['content-type']),
        headers: this.headers,
        streamingRequested: ex.request.streamingRequested,
        dialect: ex.settings.dialect,
      });
      this.decoder = decoder;
      ex.state.dialect = decoder.dialect;
      ex.failure.readingWholeBody = decoder.isJsonBody;
      this.emit?.({ kind: 'headers', status: statusCode, atMs });
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    }
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    const atMs = performance.now();
    const ex = this.ex;
    try {
      if (this.errorBody) {
        if (this.errorBody.push(chunk)) this.fail(this.httpError());
        return !this.settled;
      }
      const decoder = this.decoder!;
      ex.countBody(chunk);
      const events = decoder.push(chunk);
      ex.state.dialect = decoder.dialect;
      ex.failure.readingWholeBody = decoder.isJsonBody;
      for (const event of events) apply(ex, event, atMs, this.emit);
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    }
  }

  onComplete(): void {
    if (this.settled) return;
    const ex = this.ex;
    try {
      if (this.errorBody) throw this.httpError();
      const decoder = this.decoder!;
      const endEvents = decoder.end();
      const atMs = performance.now();
      ex.state.dialect = decoder.dialect;
      for (const event of endEvents) apply(ex, event, atMs, this.emit);
      this.endAt = atMs;
    } catch (err) {
      this.fail(err);
      return;
    }
    // The body is complete: a deadline or an abort from here on must not turn it into a failure.
    this.settled = true;
    ex.guard.dispose();
    // undici hands the connection back to its pool one macrotask after the end (the setImmediate it
    // queues once this callback returns); the result is given one macrotask after that, so a
    // caller's next sequential request reuses the socket instead of opening another.
    queueMicrotask(() => setImmediate(() => this.finish()));
  }

  onError(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    const failure = toKbError(err, this.ex.failure);
    this.ex.guard.dispose();
    this.reject(failure);
  }

  /** The guard fired (the deadline, or the caller's abort): the request is cut where it is. */
  cancel(reason: GuardAbort): void {
    if (this.settled) return;
    this.settled = true;
    this.cancelReason = reason;
    const failure = toKbError(reason, this.ex.failure);
    this.ex.guard.dispose();
    this.abortRequest?.(reason);
    this.reject(failure);
  }

  /** Our own failure (a decoder's, a bad body, an HTTP error): typed now, and the socket given up. */
  private fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    const failure = toKbError(err, this.ex.failure);
    this.ex.guard.abort('cancelled');
    this.ex.guard.dispose();
    this.abortRequest?.(failure);
    this.reject(failure);
  }

  private httpError(): Error {
    const ex = this.ex;
    return httpErrorFor({ status: ex.state.status ?? 0, label: ex.request.label, bodyText: this.errorBody!.excerpt(ex), retryAfter: this.headers['retry-after'] });
  }

  private finish(): void {
    const ex = this.ex;
    if (!ex.state.finished) {
      this.reject(toKbError(new StreamError(`${ex.request.label}: the ${ex.state.dialect ?? 'stream'} stream ended without its finish event`), ex.failure));
      return;
    }
    const result = ex.state.result(this.endAt);
    this.emit?.({ kind: 'end', result, atMs: this.endAt });
    this.resolve(result);
  }
}
