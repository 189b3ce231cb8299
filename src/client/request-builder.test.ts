// Unit tests: the wire form of requests (labels without the key, streaming flags, paths).
import { describe, expect, it } from 'vitest';
import { buildAskRequest, buildContinueRequest, buildListChatsRequest, type AuthConfig } from './request-builder.js';

const header: AuthConfig = { apiKey: 'K', auth: 'header', apiKeyHeader: 'x-api-key' };
const query: AuthConfig = { ...header, auth: 'query' };

describe('request builder', () => {
  it('labels requests without their query (the key may be in it)', () => {
    const wire = buildAskRequest({ boardId: 'b', chatId: 'c', prompt: 'p', method: 'get' }, query);
    expect(wire.path).toContain('api_key=K');
    expect(wire.label).toBe('GET /api/conversation');
    expect(wire.headers['x-api-key']).toBeUndefined();
  });

  it('marks streamed requests and asks for no particular format', () => {
    const wire = buildAskRequest({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true }, header);
    expect(wire.streamingRequested).toBe(true);
    expect(wire.headers.accept).toBe('*/*');
    expect(JSON.parse(wire.body ?? '')).toEqual({ prompt: 'p', streaming: 'true' });
  });

  it('builds the continue path and the chats query', () => {
    expect(buildContinueRequest({ boardId: 'b', chatId: 'c', prompt: 'p', conversationId: 'xMmCzgatt8TAI1L58LYQ' }, header).path).toBe(
      '/api/conversation/xMmCzgatt8TAI1L58LYQ?board_id=b&chat_id=c',
    );
    expect(buildListChatsRequest('b 1', query).path).toBe('/api/chats?board_id=b+1&api_key=K');
  });
});
