// createClient: the typed client of every endpoint, on one keep-alive undici Pool per origin.
import { Pool } from 'undici';
import type { AnswerResult, AskRequest, ChatClient, ContinueRequest, CreateConversationRequest } from '../domain/index.js';
import { BoardListSchema, ChatListSchema, ConversationSchema, type Board, type ChatList, type Conversation } from '../protocol/index.js';
import { exchangeAnswer, exchangeJson, runAnswer, type ExchangeCall, type ExchangeSettings, type StreamEvent } from './exchange.js';
import { resolveOptions, type ClientOptions, type ResolvedOptions } from './options.js';
import { createRedactor } from './redact.js';
import {
  buildAskRequest,
  buildContinueRequest,
  buildCreateConversationRequest,
  buildListBoardsRequest,
  buildListChatsRequest,
  type AuthConfig,
  type WireRequest,
} from './request-builder.js';

export interface PoolStats {
  connected: number;
  free: number;
  pending: number;
  running: number;
  size: number;
}

/** The ChatClient port plus what a library user may want: the answer as timed events. */
export interface KbClient extends ChatClient {
  /** Yields `headers`, then `chunk` / `finish` / `usage` as they arrive, then `end` with the result. */
  askEvents(request: AskRequest): AsyncGenerator<StreamEvent, AnswerResult>;
  continueEvents(request: ContinueRequest): AsyncGenerator<StreamEvent, AnswerResult>;
  listBoards(signal?: AbortSignal, timeoutMs?: number): Promise<Board[]>;
  listChats(boardId: string, signal?: AbortSignal, timeoutMs?: number): Promise<ChatList['data']>;
  poolStats(): PoolStats;
  readonly origin: string;
}

/** Drains an event generator and returns what it returns: the AnswerResult. */
export async function collectAnswer(events: AsyncGenerator<StreamEvent, AnswerResult>): Promise<AnswerResult> {
  for (;;) {
    const step = await events.next();
    if (step.done) return step.value;
  }
}

function createPool(resolved: ResolvedOptions): Pool {
  return new Pool(resolved.origin, {
    connections: resolved.connections,
    keepAliveTimeout: resolved.keepAliveTimeoutMs,
    keepAliveMaxTimeout: Math.max(resolved.keepAliveTimeoutMs, 600_000),
    // The client's own deadline (RequestGuard) governs and tells the phases apart.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

function callOf(request: { signal?: AbortSignal; timeoutMs?: number }): ExchangeCall {
  return { signal: request.signal, timeoutMs: request.timeoutMs };
}

export function createClient(options: ClientOptions): KbClient {
  const resolved = resolveOptions(options);
  const pool = createPool(resolved);
  let closed: Promise<void> | undefined;
  const auth: AuthConfig = { apiKey: resolved.apiKey, auth: resolved.auth, apiKeyHeader: resolved.apiKeyHeader };
  const settings: ExchangeSettings = {
    dispatcher: pool,
    origin: resolved.origin,
    basePath: resolved.basePath,
    timeoutMs: resolved.timeoutMs,
    dialect: resolved.dialect,
    redact: createRedactor(resolved.apiKey),
    errorBodyLimitBytes: resolved.errorBodyLimitBytes,
    maxBodyBytes: resolved.maxBodyBytes,
  };
  // The wire request was built for this call alone: the client's own headers are added to it in
  // place (the request's own win), not by copying two objects per request.
  const withHeaders = (wire: WireRequest): WireRequest => {
    for (const name in resolved.headers) if (!(name in wire.headers)) wire.headers[name] = resolved.headers[name]!;
    return wire;
  };
  const json = <T>(wire: WireRequest, call: ExchangeCall, parse: (value: unknown) => T | undefined, what: string): Promise<T> =>
    exchangeJson(settings, withHeaders(wire), call, parse, what);

  const askEvents = (request: AskRequest) => exchangeAnswer(settings, withHeaders(buildAskRequest(request, auth)), callOf(request));
  const continueEvents = (request: ContinueRequest) =>
    exchangeAnswer(settings, withHeaders(buildContinueRequest(request, auth)), callOf(request));

  return {
    origin: resolved.origin,
    askEvents,
    continueEvents,
    ask: (request) => runAnswer(settings, withHeaders(buildAskRequest(request, auth)), callOf(request)),
    continueConversation: (request) => runAnswer(settings, withHeaders(buildContinueRequest(request, auth)), callOf(request)),
    createConversation: (request: CreateConversationRequest): Promise<Conversation> =>
      json(buildCreateConversationRequest(request, auth), callOf(request), (v) => ConversationSchema.safeParse(v).data, 'a conversation (with a conversationId other than "", "." or "..")'),
    listBoards: (signal, timeoutMs) =>
      json(buildListBoardsRequest(auth), { signal, timeoutMs }, (v) => BoardListSchema.safeParse(v).data?.data, 'a board list'),
    listChats: (boardId, signal, timeoutMs) =>
      json(buildListChatsRequest(boardId, auth), { signal, timeoutMs }, (v) => ChatListSchema.safeParse(v).data?.data, 'a chat list'),
    poolStats: () => {
      const { connected, free, pending, running, size } = pool.stats;
      return { connected, free, pending, running, size };
    },
    // Once: a run closes its client before its reports and again on every way out (undici's second close throws).
    close: () => (closed ??= pool.close()),
  };
}
