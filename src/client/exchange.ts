// One request on the wire: sends it through the pool, decodes the answer as it arrives and yields
// timed events; every failure comes out as a typed KbError carrying the partial answer.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { MalformedBodyError, StreamError, type AnswerResult } from '../domain/index.js';
import type { StreamDialect } from '../protocol/index.js';
import { parseJsonLenient, readCredits, type CreditReading } from './credit-value.js';
import { AnswerState } from './answer-state.js';
import type { DecodedEvent } from './decode/events.js';
import { ResponseDecoder } from './decode/response-decoder.js';
import { toKbError, type FailureContext } from './failure.js';
import { errorFromOkBody, httpErrorFor } from './http-errors.js';
import { excerpt, type Redactor } from './redact.js';
import type { WireRequest } from './request-builder.js';
import { RequestGuard } from './request-guard.js';

export type StreamEvent =
  | { kind: 'headers'; status: number; atMs: number }
  | { kind: 'chunk'; text: string; atMs: number }
  | { kind: 'finish'; finishReason?: string; atMs: number }
  | { kind: 'usage'; creditsUsed: number | null; creditsRemaining: number | null; creditsInvalid?: string; atMs: number }
  | { kind: 'end'; result: AnswerResult; atMs: number };

export interface ExchangeSettings {
  dispatcher: Dispatcher;
  /** `https://host:port` of the pool. */
  origin: string;
  /** Path prefix of the base URL (`/kb` for `https://host/kb`), '' for none. */
  basePath: string;
  timeoutMs: number;
  dialect: 'auto' | StreamDialect;
  redact: Redactor;
  /** How much of an error body is read and kept. */
  errorBodyLimitBytes: number;
  /** The most a 2xx body may carry. */
  maxBodyBytes: number;
}

export interface ExchangeCall {
  signal?: AbortSignal;
  timeoutMs?: number;
}

type Headers = Record<string, string | string[] | undefined>;
interface Opened {
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown };
}

/** Room for the key (raw or percent-encoded) that straddles the read limit to be redacted whole. */
const REDACTION_MARGIN_BYTES = 4096;

const first = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

class Exchange {
  readonly guard: RequestGuard;
  readonly state: AnswerState;
  readonly failure: FailureContext;
  private bodyBytes = 0;

  constructor(
    readonly settings: ExchangeSettings,
    readonly request: WireRequest,
    call: ExchangeCall,
  ) {
    this.guard = new RequestGuard(call.signal, call.timeoutMs ?? settings.timeoutMs, request.label);
    // sentAt: just before undici writes the request (a busy pool's queueing counts as latency).
    this.state = new AnswerState(performance.now());
    this.failure = {
      label: request.label,
      guard: this.guard,
      state: this.state,
      redact: settings.redact,
      readingWholeBody: false,
      streamingRequested: request.streamingRequested,
    };
  }

  /** Sends the request; a non-2xx answer is read (bounded) and thrown as its typed error. */
  async open(): Promise<Opened> {
    const { method, path, headers, body } = this.request;
    const response = await this.settings.dispatcher.request({
      origin: this.settings.origin,
      method,
      path: this.settings.basePath + path,
      headers,
      body,
      signal: this.guard.signal,
    });
    this.state.onHeaders(response.statusCode, performance.now());
    const opened: Opened = { status: response.statusCode, headers: response.headers, body: response.body };
    if (opened.status < 200 || opened.status > 299) {
      this.failure.readingWholeBody = true;
      const bodyText = await this.readLimited(opened.body);
      throw httpErrorFor({ status: opened.status, label: this.request.label, bodyText, retryAfter: opened.headers['retry-after'] });
    }
    return opened;
  }

  /**
   * Reads up to errorBodyLimitBytes (plus a margin), redacts, then cuts: cutting first could leave
   * a prefix of the key in the excerpt. The rest of the body is dropped, and the socket with it.
   */
  private async readLimited(body: Opened['body']): Promise<string> {
    const decoder = new TextDecoder();
    const limit = this.settings.errorBodyLimitBytes;
    const capBytes = limit + REDACTION_MARGIN_BYTES;
    let text = '';
    let bytes = 0;
    for await (const chunk of body) {
      text += decoder.decode(chunk.subarray(0, Math.max(0, capBytes - bytes)), { stream: true });
      bytes += chunk.byteLength;
      if (bytes >= capBytes) {
        body.destroy();
        break;
      }
    }
    const redacted = this.settings.redact(text + decoder.decode());
    return redacted.length > limit ? `${redacted.slice(0, limit)}…` : redacted;
  }

  /** Counts 2xx body bytes; past maxBodyBytes the body is given up, and its socket with it. */
  countBody(bytes: Uint8Array): void {
    this.bodyBytes += bytes.byteLength;
    const max = this.settings.maxBodyBytes;
    if (this.bodyBytes <= max) return;
    const { label } = this.request;
    if (this.failure.readingWholeBody) {
      throw new MalformedBodyError(`${label} answered HTTP ${this.state.status ?? 0} with a body over ${max} bytes`, this.state.status ?? 0, '');
    }
    throw new StreamError(`${label}: the stream passed ${max} bytes without ending`);
  }

  fail(err: unknown): never {
    throw toKbError(err, this.failure);
  }

  /** A whole JSON body, parsed; a body that is not JSON is a MalformedBodyError. */
  parseJson(raw: string): unknown {
    try {
      return parseJsonLenient(raw);
    } catch {
      throw this.malformed(raw, 'JSON');
    }
  }

  /** A 2xx body of the wrong shape: the error a known error body names, else MalformedBodyError. */
  malformed(raw: string, what: string): Error {
    const status = this.state.status ?? 0;
    const bodyText = this.settings.redact(raw).slice(0, this.settings.errorBodyLimitBytes);
    const named = errorFromOkBody({ status, label: this.request.label, bodyText });
    return named ?? new MalformedBodyError(`${this.request.label} answered HTTP ${status} with a body that is not ${what}: ${excerpt(bodyText)}`, status, bodyText);
  }
}

function decoderFor(ex: Exchange, opened: Opened): ResponseDecoder {
  return new ResponseDecoder({
    contentType: first(opened.headers['content-type']),
    headers: opened.headers,
    streamingRequested: ex.request.streamingRequested,
    dialect: ex.settings.dialect,
  });
}

/** Where an answer's timed events go: a library consumer of askEvents, or nowhere (the runner). */
type Emit = ((event: StreamEvent) => void) | null;

/** Applies one decoded event to the state, and hands the timed event on when someone listens. */
function apply(ex: Exchange, event: DecodedEvent, atMs: number, emit: Emit): void {
  const state = ex.state;
  switch (event.kind) {
    case 'text':
      state.onText(event.text, atMs);
      emit?.({ kind: 'chunk', text: event.text, atMs });
      return;
    case 'finish': {
      const first = !state.finished;
      state.onFinish(atMs);
      if (first) emit?.(event.finishReason === undefined ? { kind: 'finish', atMs } : { kind: 'finish', finishReason: event.finishReason, atMs });
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

/**
 * undici hands a connection back to its pool only after the body's end has been delivered to us;
 * one macrotask later, a caller's next sequential request reuses it instead of opening another
 * socket. The answer's endAt is taken before this wait.
 */
function releaseConnection(): Promise<void> {
  return nextMacrotask();
}

/**
 * Reads the body, stamping each arrival; returns when it ended (the answer's endAt). A plain loop,
 * not an async generator: a generator per answer cost several promise hops per chunk, which at
 * thousands of streams at once was most of the harness's own CPU and of its first-chunk error.
 */
async function readBody(ex: Exchange, opened: Opened, emit: Emit): Promise<number> {
  const decoder = decoderFor(ex, opened);
  ex.state.dialect = decoder.dialect;
  ex.failure.readingWholeBody = decoder.isJsonBody;
  for await (const bytes of opened.body) {
    const atMs = performance.now();
    ex.countBody(bytes);
    const events = decoder.push(bytes);
    ex.state.dialect = decoder.dialect;
    ex.failure.readingWholeBody = decoder.isJsonBody;
    for (const event of events) apply(ex, event, atMs, emit);
  }
  const endEvents = decoder.end();
  const atMs = performance.now();
  ex.state.dialect = decoder.dialect;
  for (const event of endEvents) apply(ex, event, atMs, emit);
  return atMs;
}

/** Sends an ask/continue request and returns its AnswerResult; `emit` sees its timed events as they happen. */
export async function runAnswer(settings: ExchangeSettings, request: WireRequest, call: ExchangeCall, emit: Emit = null): Promise<AnswerResult> {
  const ex = new Exchange(settings, request, call);
  let completed = false;
  try {
    const opened = await ex.open();
    emit?.({ kind: 'headers', status: opened.status, atMs: ex.state.marks.headersAt ?? performance.now() });
    const endAt = await readBody(ex, opened, emit);
    // The body is complete: a deadline or an abort from here on must not turn it into a failure.
    ex.guard.dispose();
    await releaseConnection();
    if (!ex.state.finished) {
      throw new StreamError(`${request.label}: the ${ex.state.dialect ?? 'stream'} stream ended without its finish event`);
    }
    const result = ex.state.result(endAt);
    completed = true;
    emit?.({ kind: 'end', result, atMs: endAt });
    return result;
  } catch (err) {
    return ex.fail(err);
  } finally {
    // A cancelled consumer, or a decoder error: stop reading and free the socket.
    if (!completed) ex.guard.abort('cancelled');
    ex.guard.dispose();
  }
}

/**
 * The same answer as events to iterate (the library's askEvents). Events are queued as they happen;
 * a consumer that stops early cancels the request and frees the socket.
 */
export async function* exchangeAnswer(settings: ExchangeSettings, request: WireRequest, call: ExchangeCall): AsyncGenerator<StreamEvent, AnswerResult> {
  const queue: StreamEvent[] = [];
  let wake: (() => void) | null = null;
  const stop = new AbortController();
  const signal = call.signal ? AbortSignal.any([call.signal, stop.signal]) : stop.signal;
  let settled = false;
  const answer = runAnswer(settings, request, { ...call, signal }, (event) => {
    queue.push(event);
    wake?.();
  });
  answer.then(() => (settled = true), () => (settled = true)).finally(() => wake?.());
  try {
    for (;;) {
      const event = queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (settled) return await answer;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    if (!settled) {
      stop.abort();
      await answer.catch(() => undefined);
    }
  }
}

/** Sends a request whose answer is one JSON document and returns it validated by `parse`. */
export async function exchangeJson<T>(settings: ExchangeSettings, request: WireRequest, call: ExchangeCall, parse: (value: unknown) => T | undefined, what: string): Promise<T> {
  const ex = new Exchange(settings, request, call);
  let completed = false;
  try {
    const opened = await ex.open();
    ex.failure.readingWholeBody = true;
    const decoder = new TextDecoder();
    let raw = '';
    for await (const bytes of opened.body) {
      ex.countBody(bytes);
      raw += decoder.decode(bytes, { stream: true });
    }
    raw += decoder.decode();
    ex.state.marks.endAt = performance.now();
    ex.guard.dispose();
    await releaseConnection();
    const value = parse(ex.parseJson(raw));
    if (value === undefined) throw ex.malformed(raw, what);
    completed = true;
    return value;
  } catch (err) {
    return ex.fail(err);
  } finally {
    if (!completed) ex.guard.abort('cancelled');
    ex.guard.dispose();
  }
}
