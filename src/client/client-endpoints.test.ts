// Wire tests: every endpoint's method, path, query, headers and body as a raw server sees them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type KbClient } from './client.js';
import { sendJson, startRawServer, type RawServer } from '../test-support/raw-server.js';

const KEY = 'sk-test-secret-123';
const ANSWER = { text: 'The number is 444.', credits_used: 0.04975, credits_remaining: 1853.74585 };
let server: RawServer;
let client: KbClient;

beforeAll(async () => {
  server = await startRawServer();
  client = createClient({ baseUrl: server.url, apiKey: KEY });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.handle((_req, res) => sendJson(res, 200, ANSWER));
});

const last = () => server.requests[server.requests.length - 1]!;

describe('ask', () => {
  it('POSTs the body as JSON, flags as strings, include_usage as a boolean, the key in x-api-key', async () => {
    const result = await client.ask({
      boardId: 'winter-frost-CJk4G',
      chatId: 'chatNode-patient-star-4uIJt',
      prompt: 'What is my favourite number?',
      model: 'gpt-4o',
      plaintext: true,
      streaming: false,
      includeUsage: true,
      additionalContext: 'My favourite number is 444',
    });
    const req = last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/conversation');
    expect(Object.fromEntries(req.query)).toEqual({ board_id: 'winter-frost-CJk4G', chat_id: 'chatNode-patient-star-4uIJt' });
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      prompt: 'What is my favourite number?',
      model: 'gpt-4o',
      plaintext: 'true',
      streaming: 'false',
      include_usage: true,
      additional_context: 'My favourite number is 444',
    });
    expect(result).toMatchObject({ status: 200, text: ANSWER.text, streamed: false, dialect: 'json', finished: true, creditsUsed: 0.04975, creditsRemaining: 1853.74585 });
    const { marks } = result;
    expect(marks.headersAt).toBeGreaterThanOrEqual(marks.sentAt);
    expect(marks.firstChunkAt).toBe(marks.endAt);
    expect(marks.lastChunkAt).toBe(marks.endAt);
    expect(result.chunks).toEqual([{ text: ANSWER.text, atMs: marks.endAt }]);
  });

  it('sends only what was given: the service defaults the rest', async () => {
    await client.ask({ boardId: 'b', chatId: 'c', prompt: 'hi' });
    expect(JSON.parse(last().body)).toEqual({ prompt: 'hi' });
  });

  it('GETs with every parameter in the query, include_usage as a string', async () => {
    await client.ask({ boardId: 'b', chatId: 'c', prompt: 'a & b = ?', method: 'get', model: 'o3-mini', plaintext: false, streaming: false, includeUsage: true, additionalContext: ' ' });
    const req = last();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/api/conversation');
    expect(req.body).toBe('');
    expect(Object.fromEntries(req.query)).toEqual({
      board_id: 'b',
      chat_id: 'c',
      prompt: 'a & b = ?',
      model: 'o3-mini',
      plaintext: 'false',
      streaming: 'false',
      include_usage: 'true',
      additional_context: ' ',
    });
  });
});

describe('continue', () => {
  const base = { boardId: 'b', chatId: 'c', conversationId: '6de563f8-9b05-4710-9b46-4dd6761e2942', prompt: 'And?' };

  it('POSTs to /api/conversation/{id} with save_history as a boolean, user and source', async () => {
    await client.continueConversation({ ...base, saveHistory: true, user: 'u-1', source: 'kbbench', includeUsage: false });
    const req = last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/api/conversation/${base.conversationId}`);
    expect(Object.fromEntries(req.query)).toEqual({ board_id: 'b', chat_id: 'c' });
    expect(JSON.parse(req.body)).toEqual({ prompt: 'And?', include_usage: false, save_history: true, user: 'u-1', source: 'kbbench' });
  });

  it('GETs with save_history and include_usage as strings, and escapes the conversation id', async () => {
    await client.continueConversation({ ...base, conversationId: 'a/b c', method: 'get', saveHistory: false, includeUsage: true, streaming: false, user: 'u', source: 's' });
    const req = last();
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('/api/conversation/a%2Fb%20c?')).toBe(true);
    expect(Object.fromEntries(req.query)).toEqual({
      board_id: 'b',
      chat_id: 'c',
      prompt: 'And?',
      streaming: 'false',
      include_usage: 'true',
      save_history: 'false',
      user: 'u',
      source: 's',
    });
  });
});

describe('create conversation, list boards, list chats', () => {
  it('creates a conversation with boardId/chatId/name in the body and the key in a header', async () => {
    const conversation = { conversationId: '6de563f8-9b05-4710-9b46-4dd6761e2942', name: 'Trip', createdAt: '2025-01-01T00:00:00.000Z', boardId: 'b', chatId: 'c' };
    server.handle((_req, res) => sendJson(res, 200, conversation));
    await expect(client.createConversation({ boardId: 'b', chatId: 'c', name: 'Trip' })).resolves.toEqual(conversation);
    const req = last();
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/conversation/new');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(JSON.parse(req.body)).toEqual({ boardId: 'b', chatId: 'c', name: 'Trip' });
  });

  it('lists boards', async () => {
    server.handle((_req, res) => sendJson(res, 200, { data: [{ id: 'winter-frost-CJk4G', name: 'Winter' }] }));
    await expect(client.listBoards()).resolves.toEqual([{ id: 'winter-frost-CJk4G', name: 'Winter' }]);
    expect(last().method).toBe('GET');
    expect(last().url).toBe('/api/boards');
    expect(last().headers['x-api-key']).toBe(KEY);
  });

  it('lists the chats of a board', async () => {
    const data = [{ id: 'chatNode-patient-star-4uIJt', conversations: [{ id: 'xMmCzgatt8TAI1L58LYQ', name: 'Old' }] }];
    server.handle((_req, res) => sendJson(res, 200, { data }));
    await expect(client.listChats('winter-frost-CJk4G')).resolves.toEqual(data);
    expect(last().url).toBe('/api/chats?board_id=winter-frost-CJk4G');
  });

  it('rejects a list of the wrong shape with MalformedBodyError', async () => {
    server.handle((_req, res) => sendJson(res, 200, { boards: [] }));
    await expect(client.listBoards()).rejects.toMatchObject({ code: 'E_MALFORMED_BODY', statusCode: 200 });
  });
});

describe('authentication and base URL', () => {
  it('puts the key in the query with auth: query, and nowhere else', async () => {
    const queryClient = createClient({ baseUrl: server.url, apiKey: KEY, auth: 'query' });
    await queryClient.ask({ boardId: 'b', chatId: 'c', prompt: 'p' });
    expect(last().query.get('api_key')).toBe(KEY);
    expect(last().headers['x-api-key']).toBeUndefined();
    server.handle((_req, res) => sendJson(res, 200, { data: [] }));
    await queryClient.listChats('b');
    expect(last().query.get('api_key')).toBe(KEY);
    await queryClient.close();
  });

  it('still sends the header when creating a conversation in query mode (interface.md requires it)', async () => {
    const queryClient = createClient({ baseUrl: server.url, apiKey: KEY, auth: 'query' });
    server.handle((_req, res) => sendJson(res, 200, { conversationId: 'x', name: 'API Conversation - 1', createdAt: 't', boardId: 'b', chatId: 'c' }));
    await queryClient.createConversation({ boardId: 'b', chatId: 'c' });
    expect(last().headers['x-api-key']).toBe(KEY);
    expect(last().query.get('api_key')).toBe(KEY);
    expect(JSON.parse(last().body)).toEqual({ boardId: 'b', chatId: 'c' });
    await queryClient.close();
  });

  it('uses a configured header name and a base path prefix', async () => {
    const other = createClient({ baseUrl: `${server.url}/kb/`, apiKey: KEY, apiKeyHeader: 'api_key' });
    await other.ask({ boardId: 'b', chatId: 'c', prompt: 'p' });
    expect(last().path).toBe('/kb/api/conversation');
    expect(last().headers['api_key']).toBe(KEY);
    expect(last().headers['x-api-key']).toBeUndefined();
    await other.close();
  });

  it('closes once however often it is told to (a run closes it before its reports and again on its way out)', async () => {
    const twice = createClient({ baseUrl: server.url, apiKey: KEY });
    await twice.ask({ boardId: 'b', chatId: 'c', prompt: 'p' });
    await twice.close();
    await expect(twice.close()).resolves.not.toThrow();
  });

  it('refuses bad options with ConfigError', () => {
    expect(() => createClient({ baseUrl: 'ftp://x', apiKey: KEY })).toThrow(expect.objectContaining({ code: 'E_CONFIG' }));
    expect(() => createClient({ baseUrl: `${server.url}?api_key=${KEY}`, apiKey: KEY })).toThrow(expect.objectContaining({ code: 'E_CONFIG' }));
    expect(() => createClient({ baseUrl: server.url, apiKey: KEY, apiKeyHeader: 'bad header' })).toThrow(expect.objectContaining({ code: 'E_CONFIG' }));
    expect(() => createClient({ baseUrl: server.url, apiKey: KEY, connections: 0 })).toThrow(expect.objectContaining({ code: 'E_CONFIG' }));
  });
});

describe('successful answers of the wrong shape', () => {
  it('rejects a 200 whose body is not JSON, or not an answer, with MalformedBodyError', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    await expect(client.ask({ boardId: 'b', chatId: 'c', prompt: 'p' })).rejects.toMatchObject({ code: 'E_MALFORMED_BODY', statusCode: 200, body: '<html>maintenance</html>' });
    server.handle((_req, res) => sendJson(res, 200, { text: 'hi' }));
    await expect(client.ask({ boardId: 'b', chatId: 'c', prompt: 'p' })).rejects.toMatchObject({ code: 'E_MALFORMED_BODY', partial: { status: 200 } });
  });

  it('maps a 200 carrying a known error body by its error field', async () => {
    server.handle((_req, res) => sendJson(res, 200, { error: 'Unauthorized' }));
    await expect(client.listBoards()).rejects.toMatchObject({ code: 'E_UNAUTHORIZED', statusCode: 200 });
  });
});
