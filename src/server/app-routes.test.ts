import { describe, expect, it } from 'vitest';
import { CONVERSATION_DEFAULT_NAME_PREFIX, ERROR_VALIDATION, MESSAGE_UNAUTHORIZED } from '../protocol/index.js';
import { askUrl, bodyJson, DEMO, demoApp, request } from './test-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('keys', () => {
  it('accepts the key as api_key query, api_key header or x-api-key header', async () => {
    const app = await demoApp();
    const byQuery = await app.handle({ method: 'GET', url: `/api/boards?api_key=${DEMO.key}`, headers: {} });
    const byHeader = await app.handle({ method: 'GET', url: '/api/boards', headers: { api_key: DEMO.key } });
    const byXHeader = await app.handle({ method: 'GET', url: '/api/boards', headers: { 'X-API-Key': DEMO.key } });
    for (const response of [byQuery, byHeader, byXHeader]) expect(response.status).toBe(200);
  });

  it('answers 401 with the documented bodies', async () => {
    const app = await demoApp();
    const boards = await app.handle({ method: 'GET', url: '/api/boards', headers: {} });
    expect([boards.status, bodyJson(boards)]).toEqual([401, { error: 'Unauthorized' }]);
    const create = await app.handle(request('POST', '/api/conversation/new', { headers: { 'x-api-key': 'kb-wrong-key' }, body: {} }));
    expect([create.status, bodyJson(create)]).toEqual([401, { error: 'Unauthorized', message: MESSAGE_UNAUTHORIZED }]);
    const ask = await app.handle({ method: 'GET', url: askUrl({ prompt: 'hi' }), headers: {} });
    expect([ask.status, bodyJson(ask)]).toEqual([401, { error: 'Unauthorized', message: MESSAGE_UNAUTHORIZED }]);
  });
});

describe('boards and chats', () => {
  it('lists only the boards of the key’s account', async () => {
    const app = await demoApp();
    const mine = bodyJson(await app.handle(request('GET', '/api/boards')));
    expect(mine).toEqual({ data: [{ id: DEMO.boardId, name: 'Cobalt Desk help centre' }] });
    const theirs = bodyJson(await app.handle(request('GET', '/api/boards', { headers: { 'x-api-key': DEMO.otherKey } })));
    expect(theirs).toEqual({ data: [{ id: DEMO.otherBoardId, name: 'Escalation playbooks' }] });
  });

  it('refuses a conversation name longer than its limit with a 400 and details (finding 5)', async () => {
    const app = await demoApp();
    const long = await app.handle(request('POST', '/api/conversation/new', { body: { boardId: DEMO.boardId, chatId: DEMO.chatId, name: 'n'.repeat(1_000_001) } }));
    expect(long.status).toBe(400);
    expect(bodyJson<{ details: Record<string, string> }>(long).details).toEqual({ name: 'must be at most 1000 characters' });
    const fits = await app.handle(request('POST', '/api/conversation/new', { body: { boardId: DEMO.boardId, chatId: DEMO.chatId, name: 'n'.repeat(1_000) } }));
    expect(fits.status).toBe(200);
  });

  it('lists a board’s chats with their conversations', async () => {
    const app = await demoApp();
    const created = bodyJson<{ conversationId: string }>(
      await app.handle(request('POST', '/api/conversation/new', { body: { boardId: DEMO.boardId, chatId: DEMO.chatId, name: 'Mine' } })),
    );
    const chats = await app.handle(request('GET', `/api/chats?board_id=${DEMO.boardId}`));
    expect(chats.status).toBe(200);
    const data = bodyJson<{ data: { id: string; conversations: { id: string; name: string }[] }[] }>(chats).data;
    expect(data.map((c) => c.id)).toEqual([DEMO.chatId, DEMO.billingChatId, DEMO.judgeChatId]);
    expect(data[0]?.conversations).toEqual([{ id: created.conversationId, name: 'Mine' }]);
    expect(data[1]?.conversations).toEqual([]);
  });

  it('treats another account’s board as unknown, and wants a board_id', async () => {
    const app = await demoApp();
    const other = await app.handle(request('GET', `/api/chats?board_id=${DEMO.otherBoardId}`));
    expect(other.status).toBe(404);
    expect(bodyJson(other)).toMatchObject({ error: 'Not found' });
    const missing = await app.handle(request('GET', '/api/chats'));
    expect([missing.status, bodyJson(missing).details]).toEqual([400, { board_id: 'is required' }]);
  });
});

describe('creating a conversation', () => {
  it('returns a UUID, a default name and the ids, from body or query', async () => {
    const app = await demoApp();
    const fromBody = await app.handle(request('POST', '/api/conversation/new', { body: { boardId: DEMO.boardId, chatId: DEMO.chatId } }));
    expect(fromBody.status).toBe(200);
    const conversation = bodyJson<Record<string, string>>(fromBody);
    expect(conversation.conversationId).toMatch(UUID);
    expect(conversation.name?.startsWith(CONVERSATION_DEFAULT_NAME_PREFIX)).toBe(true);
    expect(Number.isNaN(Date.parse(conversation.createdAt ?? ''))).toBe(false);
    expect(conversation).toMatchObject({ boardId: DEMO.boardId, chatId: DEMO.chatId });
    const fromQuery = await app.handle(request('POST', `/api/conversation/new?board_id=${DEMO.boardId}&chat_id=${DEMO.chatId}`, { headers: { api_key: DEMO.key } }));
    expect(fromQuery.status).toBe(200);
  });

  it('validates and looks up what it is given', async () => {
    const app = await demoApp();
    const missing = await app.handle(request('POST', '/api/conversation/new', { body: {} }));
    expect(missing.status).toBe(400);
    expect(bodyJson(missing)).toMatchObject({ error: ERROR_VALIDATION, details: { boardId: 'is required', chatId: 'is required' } });
    expect(typeof bodyJson(missing).message).toBe('string');
    const unknownChat = await app.handle(request('POST', '/api/conversation/new', { body: { boardId: DEMO.boardId, chatId: 'chatNode-nope' } }));
    expect(unknownChat.status).toBe(404);
    const badJson = await app.handle(request('POST', '/api/conversation/new', { body: '{"boardId":' }));
    expect([badJson.status, Object.keys(bodyJson(badJson).details as object)]).toEqual([400, ['body']]);
  });
});

describe('routing', () => {
  it('answers 404 for unknown paths and 405 for unsupported methods', async () => {
    const app = await demoApp();
    expect((await app.handle(request('GET', '/api/nothing'))).status).toBe(404);
    const wrongMethod = await app.handle(request('DELETE', '/api/boards'));
    expect([wrongMethod.status, wrongMethod.headers.allow]).toEqual([405, 'GET']);
    expect((await app.handle(request('GET', '/api/conversation/new'))).status).toBe(405);
    expect((await app.handle(request('GET', askUrl({ prompt: 'hi' }, '/api/conversation/%E0%A4%A')))).status).toBe(404);
  });

  it('refuses bodies over the size limit with 413', async () => {
    const app = await demoApp({ maxBodyBytes: 100 });
    const response = await app.handle(request('POST', askUrl(), { body: { prompt: 'x'.repeat(200) } }));
    expect(response.status).toBe(413);
  });
});
