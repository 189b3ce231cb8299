// Wire tests: error statuses, proxy pages, Retry-After, refused connections and key redaction.
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KbError, type RateLimitedError, ServerError, ValidationError } from '../domain/index.js';
import { createClient, type KbClient } from './client.js';
import { sendJson, startRawServer, type RawServer } from '../test-support/raw-server.js';

const KEY = 'sk-live-very-secret-key';
let server: RawServer;
let client: KbClient;
let queryClient: KbClient;

beforeAll(async () => {
  server = await startRawServer();
  client = createClient({ baseUrl: server.url, apiKey: KEY });
  queryClient = createClient({ baseUrl: server.url, apiKey: KEY, auth: 'query' });
});
afterAll(async () => {
  await Promise.all([client.close(), queryClient.close()]);
  await server.close();
});

async function failure(promise: Promise<unknown>): Promise<KbError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(KbError);
    return err as KbError;
  }
  throw new Error('expected a failure');
}

const ask = (c: KbClient = client) => c.ask({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true });

describe('HTTP error statuses', () => {
  it.each([
    [400, 'E_VALIDATION'],
    [401, 'E_UNAUTHORIZED'],
    [402, 'E_CREDITS_EXHAUSTED'],
    [404, 'E_NOT_FOUND'],
    [413, 'E_PAYLOAD_TOO_LARGE'],
    [429, 'E_RATE_LIMITED'],
    [500, 'E_SERVER'],
    [503, 'E_SERVER'],
    [418, 'E_HTTP'],
  ])('HTTP %i → %s, with the status in the partial answer', async (status, code) => {
    server.handle((_req, res) => sendJson(res, status, { error: 'Whatever' }));
    const error = await failure(ask());
    expect(error.code).toBe(code);
    expect(error.partial?.status).toBe(status);
    expect(error.partial?.marks.headersAt).not.toBeNull();
  });

  it('carries validation details from the documented body', async () => {
    server.handle((_req, res) => sendJson(res, 400, { error: 'Validation failed', message: 'Request validation failed. Please check your parameters.', details: { chatId: 'Required' } }));
    const error = await failure(client.createConversation({ boardId: 'b', chatId: '' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual({ chatId: 'Required' });
  });

  it('maps an unlisted status by the body error field', async () => {
    server.handle((_req, res) => sendJson(res, 403, { error: 'Unauthorized', message: 'Invalid or missing API key.' }));
    expect((await failure(client.listBoards())).code).toBe('E_UNAUTHORIZED');
  });

  it('turns a proxy HTML 502 into a ServerError with a truncated text body', async () => {
    const page = `<html><body><h1>502 Bad Gateway</h1>${'x'.repeat(20_000)}</body></html>`;
    server.handle((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(page);
    });
    const error = await failure(ask());
    expect(error).toBeInstanceOf(ServerError);
    const body = (error as ServerError).body as string;
    expect(body.startsWith('<html><body><h1>502 Bad Gateway</h1>')).toBe(true);
    expect(body.length).toBeLessThan(9000);
    expect(error.message).toContain('HTTP 502');
    // The connection is not left half-read: the next request works.
    server.handle((_req, res) => sendJson(res, 200, { text: 'ok', credits_used: 0, credits_remaining: 1 }));
    await expect(client.ask({ boardId: 'b', chatId: 'c', prompt: 'p' })).resolves.toMatchObject({ text: 'ok' });
  });

  it('turns a 200 web page into a MalformedBodyError, not a plain-text answer', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body>Sign in</body></html>');
    });
    const error = await failure(ask());
    expect(error.code).toBe('E_MALFORMED_BODY');
    expect(error.message).toContain('HTTP 200');
  });

  it('reads Retry-After as seconds and as an HTTP-date', async () => {
    server.handle((_req, res) => sendJson(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '2' }));
    expect(((await failure(ask())) as RateLimitedError).retryAfterMs).toBe(2000);
    const inAMinute = new Date(new Date().getTime() + 60_000).toUTCString();
    server.handle((_req, res) => sendJson(res, 429, { error: 'Too Many Requests' }, { 'retry-after': inAMinute }));
    const retryAfterMs = ((await failure(ask())) as RateLimitedError).retryAfterMs ?? 0;
    expect(retryAfterMs).toBeGreaterThan(55_000);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
  });
});

describe('the API key never appears in errors', () => {
  it('redacts a server that echoes the URL (key in the query) in its error body', async () => {
    server.handle((req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`Cannot GET ${req.url}`);
    });
    const error = await failure(queryClient.ask({ boardId: 'b', chatId: 'c', prompt: 'p', method: 'get' }));
    expect(error.code).toBe('E_NOT_FOUND');
    expect(server.requests.at(-1)?.query.get('api_key')).toBe(KEY);
    const everything = JSON.stringify({ message: error.message, body: (error as ServerError).body, partial: error.partial });
    expect(everything).not.toContain(KEY);
    expect(everything).toContain('[redacted]');
  });

  it('redacts before truncating, so no prefix of the key survives the cut', async () => {
    const small = createClient({ baseUrl: server.url, apiKey: KEY, errorBodyLimitBytes: 100 });
    server.handle((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${'x'.repeat(90)}${KEY}${'y'.repeat(10_000)}`);
    });
    const error = await failure(small.listBoards());
    expect((error as ServerError).body).toBe(`${'x'.repeat(90)}[redacted]…`);
    await small.close();
  });

  it('redacts an error chunk that quotes the key', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {"type":"error","errorText":"bad key ${KEY}"}\n\n`);
    });
    const error = await failure(ask());
    expect(error.code).toBe('E_STREAM');
    expect(error.message).not.toContain(KEY);
  });
});

describe('the API key never appears in a failed stream', () => {
  // What a stream may carry that a decoder quotes in its error, or that arrives before a failure.
  const streams: Record<string, (res: ServerResponse) => void> = {
    'SSE data that is not JSON': (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {"bad ${KEY}\n\n`);
    },
    'a data-stream line without a code': (res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-vercel-ai-data-stream': 'v1' });
      res.end(`0:"ok"\nnonsense ${KEY}\n`);
    },
    'an NDJSON delta that is not a string': (res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`{"type":"text-delta","delta":5,"k":"${KEY}"}\n`);
    },
    'an echo of the key, then a cut': (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: {"type":"text-delta","delta":"echo ${KEY}"}\n\n`);
      setTimeout(() => res.destroy(), 20);
    },
  };

  it.each(Object.keys(streams))('%s, in the header and the query form', async (name) => {
    server.handle((_req, res) => streams[name]?.(res));
    for (const c of [client, queryClient]) {
      const error = await failure(ask(c));
      const everything = JSON.stringify({ message: error.message, stack: error.stack, partial: error.partial });
      expect(everything).not.toContain(KEY);
    }
  });

  it('redacts a key that a JSON error body escapes (quotes, PHP-style slashes)', async () => {
    const key = 'sk/Live+Key="x"';
    const escaped = JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/');
    server.handle((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(`{"error":"Unauthorized","message":"bad key ${escaped}"}`);
    });
    for (const auth of ['header', 'query'] as const) {
      const odd = createClient({ baseUrl: server.url, apiKey: key, auth });
      const error = await failure(odd.listBoards());
      expect(error.code).toBe('E_UNAUTHORIZED');
      const everything = JSON.stringify({ message: error.message, body: (error as ServerError).body, stack: error.stack });
      expect(everything).not.toContain(JSON.stringify(key).slice(1, -1));
      expect(`${error.message}${JSON.stringify((error as ServerError).body)}`).toContain('[redacted]');
      await odd.close();
    }
  });
});

describe('connection failures', () => {
  it('reports a refused connection as ConnectionError with the system code', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const refused = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, auth: 'query' });
    const error = await failure(refused.ask({ boardId: 'b', chatId: 'c', prompt: 'p' }));
    expect(error).toMatchObject({ code: 'E_CONNECTION', causeCode: 'ECONNREFUSED' });
    expect(error.partial).toMatchObject({ status: null, text: '' });
    expect(error.message).not.toContain(KEY);
    await refused.close();
  });

  it('refuses an already aborted signal without sending anything', async () => {
    const before = server.requests.length;
    const error = await failure(client.ask({ boardId: 'b', chatId: 'c', prompt: 'p', signal: AbortSignal.abort() }));
    expect(error.code).toBe('E_ABORTED');
    expect(server.requests.length).toBe(before);
  });
});
