// One request on the wire: sends it through the pool, decodes the answer as it arrives and yields
// timed events; every failure comes out as a typed KbError carrying the partial answer.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { AnswerResult } from '../domain/index.js';
import { AnswerHandler, type Emit } from './answer-handler.js';
import { Exchange, type ExchangeCall, type ExchangeSettings, type StreamEvent } from './exchange-core.js';
import type { WireRequest } from './request-builder.js';

export type { ExchangeCall, ExchangeSettings, StreamEvent } from './exchange-core.js';

/**
 * undici hands a connection back to its pool only after the body's end has been delivered to us;
 * one macrotask later, a caller's next sequential request reuses it instead of opening another
 * socket. The answer's endAt is taken before this wait.
 */
function releaseConnection(): Promise<void> {
  return nextMacrotask();
}

/**
 * Sends an ask/continue request and returns its AnswerResult; `emit` sees its timed events as they
 * happen. sentAt is stamped just before the request is handed to undici, which writes it at once on
 * a free connection (a busy pool's queueing, or a new connection's connect, counts as latency).
 */
export function runAnswer(settings: ExchangeSettings, request: WireRequest, call: ExchangeCall, emit: Emit = null): Promise<AnswerResult> {
  return new Promise<AnswerResult>((resolve, reject) => {
    const ex = new Exchange(settings, request, call);
    const handler = new AnswerHandler(ex, emit, resolve, reject);
    ex.guard.onAbort = (reason) => handler.cancel(reason);
    const { method, path, headers, body } = request;
    settings.dispatcher.dispatch({ origin: settings.origin, method, path: settings.basePath + path, headers, body }, handler);
  });
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
