// One request's state on the wire (its guard, its answer so far, how a failure is typed) and the
// settings and events every exchange shares; exchange.ts sends requests with it.
import type { Dispatcher } from 'undici';
import { MalformedBodyError, StreamError } from '../domain/index.js';
import type { StreamDialect } from '../protocol/index.js';
import { parseJsonLenient } from './credit-value.js';
import { AnswerState } from './answer-state.js';
import { toKbError, type FailureContext } from './failure.js';
import { errorFromOkBody, httpErrorFor } from './http-errors.js';
import { excerpt, type Redactor } from './redact.js';
import type { WireRequest } from './request-builder.js';
import { RequestGuard } from './request-guard.js';
import type { AnswerResult } from '../domain/index.js';

/** Room for the key (raw or percent-encoded) that straddles the read limit to be redacted whole. */
export const REDACTION_MARGIN_BYTES = 4096;

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

export type Headers = Record<string, string | string[] | undefined>;
export interface Opened {
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown };
}

/** One request's state: its guard, its answer so far, and what a failure needs to be typed. */
export class Exchange {
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
