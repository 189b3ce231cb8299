// The embeddings client against a real HTTP server on 127.0.0.1 that speaks OpenAI's /v1/embeddings.
import { afterEach, describe, expect, it } from 'vitest';
import { fetchEmbeddings } from './embeddings.js';
import { sendJson, startRawServer, type RawServer } from '../test-support/raw-server.js';

let server: RawServer | undefined;
afterEach(async () => server?.close());

describe('fetchEmbeddings', () => {
  it('posts the model and inputs with the key as a bearer token, and orders the vectors by index', async () => {
    server = await startRawServer();
    server.handle((_req, res) => sendJson(res, 200, { object: 'list', data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] }));
    const vectors = await fetchEmbeddings({ baseUrl: `${server.url}/v1/`, model: 'embed-small', apiKey: 'sk-embeddings-secret', timeoutMs: 5000 }, ['a', 'b']);
    expect(vectors).toEqual([[1, 0], [0, 1]]);
    const [req] = server.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/embeddings' });
    expect(req!.headers.authorization).toBe('Bearer sk-embeddings-secret');
    expect(JSON.parse(req!.body)).toEqual({ model: 'embed-small', input: ['a', 'b'] });
  });

  it('says what went wrong (status, shape) and never the key', async () => {
    server = await startRawServer();
    server.handle((_req, res) => sendJson(res, 401, { error: 'bad key sk-embeddings-secret' }));
    const endpoint = { baseUrl: `${server.url}/v1`, model: 'm', apiKey: 'sk-embeddings-secret', timeoutMs: 5000 };
    await expect(fetchEmbeddings(endpoint, ['a'])).rejects.toThrow(/answered HTTP 401$/);
    server.handle((_req, res) => sendJson(res, 200, { data: [] }));
    await expect(fetchEmbeddings(endpoint, ['a'])).rejects.toThrow(/did not answer \{ data: \[\{ embedding \}\] \} for 1 inputs/);
  });
});
