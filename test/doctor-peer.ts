// An independent service for doctor's tests: a real HTTP server on 127.0.0.1, written from
// interface.md and public-facts.md alone (nothing of src/server/), that speaks one stream dialect
// and can break the contract in known ways. It counts what crossed the wire: requests and credits.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PeerDialect = 'ui-sse' | 'data-stream' | 'openai-sse' | 'ndjson' | 'text';

/** Breaks of the contract a test plants; each is one row doctor must report as differing. */
export interface PeerBreaks {
  /** A missing key answered with this status instead of 401. */
  missingKeyStatus?: number;
  /** An unknown chat answered with this status (and a JSON error) instead of 404. */
  unknownChatStatus?: number;
  /** Streams carry no usage chunk, include_usage or not. */
  noUsageChunk?: boolean;
  /** Every answer takes this many credits more than it reports (credits_remaining falls by more than credits_used). */
  hiddenCredits?: number;
  /** The GET form answers `{answer, credits}` instead of the Answer object. */
  getDiffers?: boolean;
  /** Only this key form is accepted ('x-api-key' | 'api_key' header, or 'query'). */
  onlyForm?: 'x-api-key' | 'api_key' | 'query';
}

export interface DoctorPeer {
  url: string;
  key: string;
  boardId: string;
  chatId: string;
  /** Every request that reached the peer. */
  requests(): number;
  /** Credits taken from the account (hidden ones included). */
  creditsTaken(): number;
  stop(): Promise<void>;
}

const BOARD = 'peer-board-Xy12Z';
const CHAT = 'chatNode-peer-chat-Ab34C';
const KEY = 'peer-key-0123456789abcdef';
const MODELS = ['claude-sonnet-4-6', 'claude-sonnet-4-5', 'claude-sonnet-5', 'o3-mini', 'gpt-4o', 'grok-2-1212', 'gpt-4o-mini'];
/** Price of an answer in 1e-5 credits, per model. */
const PRICE_UNITS: Record<string, number> = { 'gpt-4o-mini': 321 };
const DEFAULT_PRICE_UNITS = 1234;

interface Thread {
  id: string;
  name: string;
  saved: string[];
}

const on = (value: unknown): boolean => value === true || value === 'true' || value === 'active';

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => resolve(text));
  });
}

function keyOf(req: IncomingMessage, query: URLSearchParams, only?: PeerBreaks['onlyForm']): string | undefined {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value) || undefined;
  };
  const forms = { 'x-api-key': header('x-api-key'), api_key: header('api_key'), query: query.get('api_key') ?? undefined };
  return only ? forms[only] : (forms['x-api-key'] ?? forms.api_key ?? forms.query);
}

/** The stream of one answer in the dialect, each string one write. */
function frames(dialect: PeerDialect, words: string[], usage: number | null): string[] {
  const sse = (payload: unknown): string => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
  const line = (payload: unknown): string => `${JSON.stringify(payload)}\n`;
  const used = usage === null ? [] : [{ type: 'usage', credits_used: usage }];
  switch (dialect) {
    case 'ui-sse':
      return [sse({ type: 'start' }), ...words.map((delta) => sse({ type: 'text-delta', id: 't', delta })), sse({ type: 'finish' }), ...used.map(sse), sse('[DONE]')];
    case 'ndjson':
      return [...words.map((delta) => line({ type: 'text-delta', delta })), line({ type: 'finish' }), ...used.map(line)];
    case 'openai-sse':
      return [...words.map((content) => sse({ choices: [{ index: 0, delta: { content } }] })), sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), ...used.map(sse), sse('[DONE]')];
    case 'data-stream':
      return [...words.map((w) => `0:${JSON.stringify(w)}\n`), `d:${JSON.stringify({ finishReason: 'stop' })}\n`, ...used.map((u) => `2:${JSON.stringify([u])}\n`)];
    case 'text':
      return words;
  }
}

const CONTENT_TYPE: Record<PeerDialect, Record<string, string>> = {
  'ui-sse': { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
  ndjson: { 'content-type': 'application/x-ndjson' },
  'openai-sse': { 'content-type': 'text/event-stream' },
  'data-stream': { 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' },
  text: { 'content-type': 'text/plain; charset=utf-8' },
};

/** What the assistant says: the favourite number from the context or the saved thread, else a greeting. */
function answerText(prompt: string, context: string, saved: readonly string[], plaintext: boolean): string {
  const number = /favourite number is (\d+)/i.exec(context)?.[1] ?? [...saved].reverse().map((t) => /favourite number is (\d+)/i.exec(t)?.[1]).find(Boolean);
  if (/favourite number/i.test(prompt)) return number ? `Your favourite number is ${number}.` : 'I do not know your favourite number.';
  return plaintext ? 'Hello from the peer service.' : '**Hello** from the peer service.';
}

export async function startDoctorPeer(dialect: PeerDialect, breaks: PeerBreaks = {}): Promise<DoctorPeer> {
  let requests = 0;
  let remainingUnits = 100_000_000;
  let takenUnits = 0;
  const threads = new Map<string, Thread>();

  const answer = async (req: IncomingMessage, res: ServerResponse, query: URLSearchParams, conversationId?: string): Promise<void> => {
    const input: Record<string, unknown> = Object.fromEntries(query);
    if (req.method === 'POST') Object.assign(input, JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>);
    const details: Record<string, string> = {};
    if (typeof input.prompt !== 'string' || input.prompt === '') details.prompt = 'is required';
    const model = typeof input.model === 'string' ? input.model : 'claude-sonnet-4-6';
    if (!MODELS.includes(model)) details.model = 'is not a known model';
    if (Object.keys(details).length) return send(res, 400, { error: 'Validation failed', message: 'Request validation failed. Please check your parameters.', details });
    if (input.board_id !== BOARD) return send(res, 404, { error: 'Not found', message: 'No such board.' });
    if (input.chat_id !== CHAT) return send(res, breaks.unknownChatStatus ?? 404, { error: 'Not found', message: 'No such chat.' });
    const thread = conversationId === undefined ? undefined : threads.get(conversationId);
    if (conversationId !== undefined && !thread) return send(res, 404, { error: 'Not found', message: 'No such conversation.' });
    const context = typeof input.additional_context === 'string' ? input.additional_context : ' ';
    const text = answerText(String(input.prompt), context, thread?.saved ?? [], on(input.plaintext));
    const price = PRICE_UNITS[model] ?? DEFAULT_PRICE_UNITS;
    const taken = price + (breaks.hiddenCredits ?? 0) * 1e5;
    remainingUnits -= taken;
    takenUnits += taken;
    if (thread && input.save_history !== false && input.save_history !== 'false') thread.saved.push(text);
    const credits = { credits_used: price / 1e5, credits_remaining: remainingUnits / 1e5 };
    if (!on(input.streaming)) {
      return send(res, 200, req.method === 'GET' && breaks.getDiffers ? { answer: text, credits: credits.credits_used } : { text, ...credits });
    }
    res.writeHead(200, CONTENT_TYPE[dialect]);
    const words = text.split(/(?<= )/);
    const usage = on(input.include_usage) && !breaks.noUsageChunk ? credits.credits_used : null;
    for (const frame of frames(dialect, words, usage)) {
      res.write(frame);
      await new Promise((r) => setTimeout(r, 2));
    }
    res.end();
  };

  const create = async (req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> => {
    const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
    const boardId = body.boardId ?? query.get('board_id');
    const chatId = body.chatId ?? query.get('chat_id');
    if (typeof boardId !== 'string' || typeof chatId !== 'string') {
      return send(res, 400, { error: 'Validation failed', message: 'Request validation failed. Please check your parameters.', details: { chatId: 'is required' } });
    }
    if (boardId !== BOARD || chatId !== CHAT) return send(res, 404, { error: 'Not found', message: 'No such board or chat.' });
    const createdAt = new Date().toISOString();
    const thread: Thread = { id: randomUUID(), name: typeof body.name === 'string' ? body.name : `API Conversation - ${createdAt}`, saved: [] };
    threads.set(thread.id, thread);
    send(res, 200, { conversationId: thread.id, name: thread.name, createdAt, boardId, chatId });
  };

  const server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://peer.invalid');
    const key = keyOf(req, url.searchParams, breaks.onlyForm);
    if (key !== KEY) {
      const status = key === undefined ? (breaks.missingKeyStatus ?? 401) : 401;
      return url.pathname === '/api/boards' ? send(res, status, { error: 'Unauthorized' }) : send(res, status, { error: 'Unauthorized', message: 'Invalid or missing API key.' });
    }
    if (url.pathname === '/api/boards') return send(res, 200, { data: [{ id: BOARD, name: 'Peer board' }] });
    if (url.pathname === '/api/chats') {
      if (url.searchParams.get('board_id') !== BOARD) return send(res, 404, { error: 'Not found', message: 'No such board.' });
      return send(res, 200, { data: [{ id: CHAT, conversations: [...threads.values()].map((t) => ({ id: t.id, name: t.name })) }] });
    }
    if (url.pathname === '/api/conversation/new' && req.method === 'POST') return void create(req, res, url.searchParams);
    const match = /^\/api\/conversation(?:\/([^/]+))?$/.exec(url.pathname);
    if (match && (req.method === 'GET' || req.method === 'POST')) return void answer(req, res, url.searchParams, match[1] === undefined ? undefined : decodeURIComponent(match[1]));
    send(res, 404, { error: 'Not found', message: `No endpoint at ${url.pathname}.` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key: KEY,
    boardId: BOARD,
    chatId: CHAT,
    requests: () => requests,
    creditsTaken: () => takenUnits / 1e5,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
