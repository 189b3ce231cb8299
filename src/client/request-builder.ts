// Builds the wire form (method, path + query, headers, body) of every endpoint in interface.md.
import type { AskRequest, ContinueRequest, CreateConversationRequest } from '../domain/index.js';
import { API_KEY_QUERY, API_PATHS, continuePath } from '../protocol/index.js';

export interface AuthConfig {
  apiKey: string;
  auth: 'header' | 'query';
  apiKeyHeader: string;
}

export interface WireRequest {
  method: 'GET' | 'POST';
  /** Path and query, relative to the base URL's path. May contain the key: never print it. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** `POST /api/conversation/abc`: safe for messages (no query, so no key). */
  label: string;
  /** The request asked for a stream; decides how an undecided response is timed and decoded. */
  streamingRequested: boolean;
}

type Params = Record<string, string | undefined>;

const flag = (value: boolean | undefined): string | undefined => (value === undefined ? undefined : String(value));

function withQuery(path: string, params: Params): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

function authParams(auth: AuthConfig): Params {
  return auth.auth === 'query' ? { [API_KEY_QUERY]: auth.apiKey } : {};
}

function authHeaders(auth: AuthConfig): Record<string, string> {
  return auth.auth === 'header' ? { [auth.apiKeyHeader]: auth.apiKey } : {};
}

function acceptFor(streaming: boolean): string {
  // A stream's format is detected, not negotiated: ask for nothing in particular.
  return streaming ? '*/*' : 'application/json';
}

/** The answer parameters shared by ask and continue; flags typed as strings go as 'true'/'false'. */
function answerParams(request: AskRequest, form: 'body' | 'query'): Record<string, unknown> {
  return {
    prompt: request.prompt,
    model: request.model,
    plaintext: flag(request.plaintext),
    streaming: flag(request.streaming),
    // include_usage is a boolean in POST bodies and a string in GET queries.
    include_usage: form === 'body' ? request.includeUsage : flag(request.includeUsage),
    additional_context: request.additionalContext,
  };
}

function continueParams(request: ContinueRequest, form: 'body' | 'query'): Record<string, unknown> {
  return {
    ...answerParams(request, form),
    save_history: form === 'body' ? request.saveHistory : flag(request.saveHistory),
    user: request.user,
    source: request.source,
  };
}

/**
 * The last POST target built (path and query): a run sends thousands of answers to one board and
 * chat, where a URLSearchParams per request showed in the profile.
 */
let lastTarget: { path: string; boardId: string; chatId: string; auth: AuthConfig; built: string } | null = null;

function postTarget(path: string, boardId: string, chatId: string, auth: AuthConfig): string {
  const last = lastTarget;
  if (last !== null && last.path === path && last.boardId === boardId && last.chatId === chatId && last.auth === auth) return last.built;
  const built = withQuery(path, { board_id: boardId, chat_id: chatId, ...authParams(auth) });
  lastTarget = { path, boardId, chatId, auth, built };
  return built;
}

function answerRequest(path: string, request: AskRequest, params: Record<string, unknown>, auth: AuthConfig): WireRequest {
  const method = request.method === 'get' ? 'GET' : 'POST';
  const streamingRequested = request.streaming === true;
  const headers: Record<string, string> = { accept: acceptFor(streamingRequested) };
  if (auth.auth === 'header') headers[auth.apiKeyHeader] = auth.apiKey;
  const label = `${method} ${path}`;
  if (method === 'GET') {
    const query = { board_id: request.boardId, chat_id: request.chatId, ...(params as Params), ...authParams(auth) };
    return { method, path: withQuery(path, query), headers, label, streamingRequested };
  }
  const body = JSON.stringify(params);
  headers['content-type'] = 'application/json';
  return { method, path: postTarget(path, request.boardId, request.chatId, auth), headers, body, label, streamingRequested };
}

export function buildAskRequest(request: AskRequest, auth: AuthConfig): WireRequest {
  const form = request.method === 'get' ? 'query' : 'body';
  return answerRequest(API_PATHS.conversation, request, answerParams(request, form), auth);
}

export function buildContinueRequest(request: ContinueRequest, auth: AuthConfig): WireRequest {
  const form = request.method === 'get' ? 'query' : 'body';
  return answerRequest(continuePath(request.conversationId), request, continueParams(request, form), auth);
}

export function buildCreateConversationRequest(request: CreateConversationRequest, auth: AuthConfig): WireRequest {
  const path = API_PATHS.conversationNew;
  // interface.md requires the key as a header here, whatever the auth mode; query mode also sends
  // it as api_key (public-facts: accepted) for a proxy that strips the header.
  const headers = { accept: 'application/json', 'content-type': 'application/json', [auth.apiKeyHeader]: auth.apiKey };
  const body = JSON.stringify({ boardId: request.boardId, chatId: request.chatId, name: request.name });
  return { method: 'POST', path: withQuery(path, authParams(auth)), headers, body, label: `POST ${path}`, streamingRequested: false };
}

function listRequest(path: string, params: Params, auth: AuthConfig): WireRequest {
  const headers = { accept: 'application/json', ...authHeaders(auth) };
  return { method: 'GET', path: withQuery(path, { ...params, ...authParams(auth) }), headers, label: `GET ${path}`, streamingRequested: false };
}

export function buildListBoardsRequest(auth: AuthConfig): WireRequest {
  return listRequest(API_PATHS.boards, {}, auth);
}

export function buildListChatsRequest(boardId: string, auth: AuthConfig): WireRequest {
  return listRequest(API_PATHS.chats, { board_id: boardId }, auth);
}
