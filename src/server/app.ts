// The service's request → response core: routing, key check, faults, body parsing; testable without a socket.
import { API_KEY_HEADERS, API_KEY_QUERY, API_PATHS, STREAM_DIALECTS, type StreamDialect } from '../protocol/index.js';
import { handleAnswer, type StreamSettings } from './answer-handler.js';
import { Replay, type Recording } from './replay.js';
import { handleReplay } from './replay-answer.js';
import { sleep } from './clock.js';
import { ConversationStore } from './conversations.js';
import { CreditAccounts } from './credit-accounts.js';
import { drawFaults, FAULT_HEADER, FAULT_KINDS, NO_FAULTS, parseFaultHeader, type FaultPlan } from './faults.js';
import { badGatewayHtml, methodNotAllowed, notFound, paymentRequired, payloadTooLarge, rateLimited, serverError, unauthorized, validationFailed } from './http-responses.js';
import { createConversation, listBoards, listChats } from './listing-handlers.js';
import { CapacityModel, type CapacityLimits } from './capacity.js';
import { resolveModelProfiles } from './model-profiles.js';
import type { ResolvedServiceOptions } from './options.js';
import { parseAnswerParams, queryInput } from './params.js';
import { deriveRandom } from './random.js';
import { PauseFault } from './pause.js';
import { releasing } from './releasing.js';
import { KnowledgeIndex } from './retrieval.js';
import type { ServiceContext, ServiceRequest, ServiceResponse } from './service-types.js';
import type { Workspace, WorkspaceAccount } from './workspace.js';

/** Test headers: force a fault, a stream dialect, ragged writes or CRLF line endings for one request. */
export const DIALECT_HEADER = 'x-kbbench-dialect';
export const SPLIT_HEADER = 'x-kbbench-split';
export const CRLF_HEADER = 'x-kbbench-crlf';

type RouteKind = 'ask' | 'continue' | 'create' | 'boards' | 'chats';
interface Route {
  kind: RouteKind;
  methods: readonly string[];
  conversationId?: string;
}

interface Incoming {
  method: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
}

function matchRoute(path: string): Route | undefined {
  if (path === API_PATHS.conversation) return { kind: 'ask', methods: ['GET', 'POST'] };
  if (path === API_PATHS.conversationNew) return { kind: 'create', methods: ['POST'] };
  if (path === API_PATHS.boards) return { kind: 'boards', methods: ['GET'] };
  if (path === API_PATHS.chats) return { kind: 'chats', methods: ['GET'] };
  const prefix = `${API_PATHS.conversation}/`;
  if (path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/')) {
    return { kind: 'continue', methods: ['GET', 'POST'], conversationId: safeDecode(path.slice(prefix.length)) };
  }
  return undefined;
}

/** A malformed escape makes an unknown conversation (404), not a server error. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function normaliseHeaders(headers: ServiceRequest['headers']): Record<string, string> {
  const normalised = Object.create(null) as Record<string, string>; // header names come from the wire
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) normalised[name.toLowerCase()] = Array.isArray(value) ? (value[0] ?? '') : value;
  }
  return normalised;
}

function apiKeyOf(incoming: Incoming): string | undefined {
  for (const name of API_KEY_HEADERS) if (incoming.headers[name]) return incoming.headers[name];
  return incoming.query.get(API_KEY_QUERY) ?? undefined;
}

function isOn(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function streamSettings(ctx: ServiceContext, incoming: Incoming): StreamSettings | ServiceResponse {
  const dialect = incoming.headers[DIALECT_HEADER] ?? ctx.options.dialect;
  if (!(STREAM_DIALECTS as readonly string[]).includes(dialect)) {
    return validationFailed({ [DIALECT_HEADER]: `must be one of: ${STREAM_DIALECTS.join(', ')}` });
  }
  return {
    dialect: dialect as StreamDialect,
    ...(incoming.headers[DIALECT_HEADER] !== undefined ? { forcedDialect: dialect as StreamDialect } : {}),
    splitWrites: isOn(incoming.headers[SPLIT_HEADER]) ?? ctx.options.splitWrites,
    crlf: isOn(incoming.headers[CRLF_HEADER]) ?? ctx.options.crlf,
  };
}

function faultPlanOf(ctx: ServiceContext, incoming: Incoming, route: Route): FaultPlan | ServiceResponse {
  const forced = incoming.headers[FAULT_HEADER];
  if (forced !== undefined) {
    return parseFaultHeader(forced, ctx.options) ?? validationFailed({ [FAULT_HEADER]: `must be one of: ${FAULT_KINDS.join(', ')} (or stall=<ms>)` });
  }
  // Random faults hit only answers: the requests a load test measures.
  return isAnswer(route) ? drawFaults(ctx.options, ctx.random.faults) : NO_FAULTS;
}

type ParsedBody = { ok: true; body: Record<string, unknown> } | { ok: false; response: ServiceResponse };

function parseBody(incoming: Incoming): ParsedBody {
  if (incoming.method !== 'POST' || incoming.body.trim() === '') return { ok: true, body: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(incoming.body);
  } catch (error) {
    return { ok: false, response: validationFailed({ body: `is not valid JSON: ${(error as Error).message}` }) };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, response: validationFailed({ body: 'must be a JSON object' }) };
  }
  return { ok: true, body: parsed as Record<string, unknown> };
}

async function dispatch(ctx: ServiceContext, incoming: Incoming, route: Route, account: WorkspaceAccount, faults: FaultPlan): Promise<ServiceResponse> {
  if (route.kind === 'boards') return listBoards(ctx, account);
  if (route.kind === 'chats') return listChats(ctx, account, incoming.query);
  const parsed = parseBody(incoming);
  if (!parsed.ok) return parsed.response;
  if (route.kind === 'create') return createConversation(ctx, account, incoming.query, parsed.body);
  const input = incoming.method === 'POST' ? { ...queryInput(incoming.query), ...parsed.body } : queryInput(incoming.query);
  const params = parseAnswerParams(input, new Set(ctx.profiles.keys()));
  if (!params.ok) return validationFailed(params.details);
  const stream = streamSettings(ctx, incoming);
  if ('status' in stream) return stream;
  const job = { account, params: params.value, conversationId: route.conversationId, faults, stream, signal: incoming.signal };
  return ctx.replay ? handleReplay(ctx, ctx.replay, job) : handleAnswer(ctx, job);
}

function isAnswer(matched: Route | undefined): boolean {
  return matched?.kind === 'ask' || matched?.kind === 'continue';
}

/** Non-answer routes honour forced stalls and cuts too, so clients can test them on any endpoint. */
async function withPlainFaults(response: ServiceResponse, faults: FaultPlan, route: Route, signal?: AbortSignal): Promise<ServiceResponse> {
  if (isAnswer(route)) return response;
  await sleep(faults.stallMs, signal);
  return faults.cut ? { ...response, cutAfterBytes: Math.floor((response.body?.length ?? 0) / 2) } : response;
}

async function route(ctx: ServiceContext, incoming: Incoming, path: string): Promise<ServiceResponse> {
  const matched = matchRoute(path);
  if (!matched) return notFound(`No endpoint at ${path}.`);
  if (!matched.methods.includes(incoming.method)) return methodNotAllowed(matched.methods);
  const faults = faultPlanOf(ctx, incoming, matched);
  if ('status' in faults) return faults;
  if (faults.gateway === '502-html') return badGatewayHtml();
  if (faults.gateway === '429') return rateLimited(ctx.options.retryAfterS);
  const limit = ctx.options.maxInFlight;
  if (isAnswer(matched) && limit > 0 && ctx.inFlight.answers > limit) return rateLimited(ctx.options.retryAfterS);
  const account = ctx.accounts.accountForKey(apiKeyOf(incoming));
  if (!account) return unauthorized(matched.kind === 'boards');
  if (faults.server === '500') return serverError('Injected fault: the service failed to answer.');
  if (faults.server === '402') return paymentRequired('Injected fault: the account has no credits left.');
  return withPlainFaults(await dispatch(ctx, incoming, matched, account, faults), faults, matched, incoming.signal);
}

export interface ReferenceApp {
  handle(request: ServiceRequest): Promise<ServiceResponse>;
  readonly context: ServiceContext;
}

function createContext(workspace: Workspace, options: ResolvedServiceOptions, recording?: Recording): ServiceContext {
  const indexes = new Map<string, KnowledgeIndex>();
  for (const board of workspace.boards) for (const chat of board.chats) indexes.set(chat.id, new KnowledgeIndex(chat.passages));
  const profiles = resolveModelProfiles(workspace.models);
  return {
    options,
    workspace,
    accounts: new CreditAccounts(workspace.accounts),
    conversations: new ConversationStore(),
    profiles,
    indexes,
    random: {
      latency: deriveRandom(options.seed, 'latency'),
      faults: deriveRandom(options.seed, 'faults'),
      split: deriveRandom(options.seed, 'split'),
    },
    inFlight: { answers: 0 },
    capacity: new CapacityModel((model) => capacityLimits(options, profiles.get(model)), options.latencyScale > 0),
    pause: new PauseFault({ everyMs: options.pauseEveryMs, forMs: options.pauseForMs }),
    ...(recording ? { replay: new Replay(recording, options.seed) } : {}),
  };
}

/** A model's slots and queue: the service flags when given, else the model's profile. */
function capacityLimits(options: ResolvedServiceOptions, profile: { slots: number; queueLimit: number } | undefined): CapacityLimits {
  return { slots: options.slots ?? profile?.slots ?? 0, queueLimit: options.queueLimit ?? profile?.queueLimit ?? 0 };
}

function toIncoming(request: ServiceRequest, url: URL): Incoming {
  const body = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
  return { method: request.method.toUpperCase(), query: url.searchParams, headers: normaliseHeaders(request.headers), body, signal: request.signal };
}

function bodyBytes(body: ServiceRequest['body']): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** With a recording, the app replays it (`serve --from-run`; the workspace is then replayWorkspace's). */
export function createReferenceApp(workspace: Workspace, options: ResolvedServiceOptions, recording?: Recording): ReferenceApp {
  const ctx = createContext(workspace, options, recording);
  const handle = async (request: ServiceRequest): Promise<ServiceResponse> => {
    if (bodyBytes(request.body) > options.maxBodyBytes) return payloadTooLarge(options.maxBodyBytes);
    const url = new URL(request.url, 'http://reference.invalid');
    const answering = isAnswer(matchRoute(url.pathname));
    if (answering) ctx.inFlight.answers++;
    let released = !answering;
    const release = (): void => {
      if (!released) ctx.inFlight.answers--;
      released = true;
    };
    try {
      // A pause holds arrivals and finished-but-unsent answers alike; streams wait between writes.
      await ctx.pause.wait(request.signal);
      const response = await route(ctx, toIncoming(request, url), url.pathname);
      if (response.stream) return { ...response, stream: releasing(response.stream, release) };
      await ctx.pause.wait(request.signal);
      release();
      return response;
    } catch (error) {
      release();
      if (request.signal?.aborted) throw error;
      return serverError(`Unexpected error: ${(error as Error).message}`);
    }
  };
  return { handle, context: ctx };
}
