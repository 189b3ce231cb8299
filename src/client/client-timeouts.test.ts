// Wire tests: timeouts by phase, aborts that reach the socket, broken sockets and keep-alive.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KbError, TimeoutError, type TimeoutPhase } from '../domain/index.js';
import { createClient, type KbClient } from './client.js';
import { sendJson, startRawServer, type RawServer } from '../test-support/raw-server.js';

const TIMEOUT_MS = 200;
const STALL_MS = 3_000;
let server: RawServer;
let client: KbClient;

beforeAll(async () => {
  server = await startRawServer();
  client = createClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: TIMEOUT_MS });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const stall = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, STALL_MS));
const streamAsk = { boardId: 'b', chatId: 'c', prompt: 'p', streaming: true };

async function failure(promise: Promise<unknown>): Promise<KbError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(KbError);
    return err as KbError;
  }
  throw new Error('expected a failure');
}

describe('timeouts by phase', () => {
  const cases: [TimeoutPhase, boolean, (res: ServerResponse) => Promise<void>, string][] = [
    ['headers', true, async () => stall(), ''],
    [
      'first-chunk',
      true,
      async (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': ping\n\n');
        await stall();
      },
      '',
    ],
    [
      'mid-stream',
      true,
      async (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"type":"text-delta","delta":"partial "}\n\n');
        await stall();
      },
      'partial ',
    ],
    [
      'body',
      false,
      async (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"text":"hal');
        await stall();
      },
      '',
    ],
  ];

  it.each(cases)('a server that stalls in phase %s', async (phase, streaming, handler, partialText) => {
    server.handle((_req, res) => handler(res));
    // The phase names the deadline that fired (the stall outlasts it); how close to TIMEOUT_MS it
    // fires is bench/timing-claims.mjs's to measure.
    const error = await failure(client.ask({ ...streamAsk, streaming }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe(phase);
    expect(error.partial?.text).toBe(partialText);
    expect(error.partial?.status).toBe(phase === 'headers' ? null : 200);
    await server.socketClosed(server.requests.at(-1)?.socketId ?? -1);
  });

  it('a per-request timeoutMs overrides the default', async () => {
    server.handle(() => stall());
    const error = await failure(client.ask({ ...streamAsk, timeoutMs: 50 }));
    expect(error.message).toContain('50 ms');
  });
});

describe('aborts and broken sockets', () => {
  it('an abort before the headers reaches the socket', async () => {
    const controller = new AbortController();
    // Aborted once the server holds the request (its headers not sent), not after a guessed wait.
    server.handle(() => {
      controller.abort();
      return stall();
    });
    const promise = client.ask({ ...streamAsk, signal: controller.signal, timeoutMs: 0 });
    const error = await failure(promise);
    expect(error.code).toBe('E_ABORTED');
    await server.socketClosed(server.requests.at(-1)?.socketId ?? -1);
  });

  it('an abort mid-stream keeps the partial text and closes the socket', async () => {
    const controller = new AbortController();
    server.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"type":"text-delta","delta":"so far"}\n');
      setTimeout(() => controller.abort(), 30);
      await stall();
    });
    const error = await failure(client.ask({ ...streamAsk, signal: controller.signal }));
    expect(error).toMatchObject({ code: 'E_ABORTED', partial: { status: 200, text: 'so far' } });
    expect(error.partial?.chunks).toHaveLength(1);
    await server.socketClosed(server.requests.at(-1)?.socketId ?? -1);
  });

  it('a socket destroyed mid-stream is a ConnectionError with the partial text', async () => {
    server.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"text-delta","delta":"cut "}\n\n');
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.socket?.destroy();
    });
    const error = await failure(client.ask(streamAsk));
    expect(error.code).toBe('E_CONNECTION');
    expect(error.partial).toMatchObject({ status: 200, text: 'cut ' });
    expect(error.partial?.marks.firstChunkAt).not.toBeNull();
  });
});

describe('keep-alive', () => {
  it('reuses one socket for sequential requests', async () => {
    const fresh = await startRawServer();
    const pooled = createClient({ baseUrl: fresh.url, apiKey: 'k', connections: 4 });
    fresh.handle((_req, res) => sendJson(res, 200, { text: 'ok', credits_used: 0.1, credits_remaining: 9 }));
    for (let i = 0; i < 4; i++) await pooled.ask({ boardId: 'b', chatId: 'c', prompt: `p${i}` });
    fresh.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"type":"text-delta","delta":"s"}\n\ndata: {"type":"finish"}\n\n');
    });
    await pooled.ask(streamAsk);
    expect(new Set(fresh.requests.map((req) => req.socketId))).toEqual(new Set([1]));
    expect(fresh.socketCount).toBe(1);
    expect(pooled.poolStats().connected).toBe(1);
    await pooled.close();
    await fresh.close();
  });
});

describe('huge bodies', () => {
  it('gives up a JSON answer, a list and an endless stream past maxBodyBytes, and their sockets', async () => {
    const small = createClient({ baseUrl: server.url, apiKey: 'k', maxBodyBytes: 4096 });
    server.handle((_req, res) => sendJson(res, 200, { text: 'x'.repeat(10_000), credits_used: 0, credits_remaining: 1 }));
    expect(await failure(small.ask({ ...streamAsk, streaming: false }))).toMatchObject({ code: 'E_MALFORMED_BODY', statusCode: 200 });
    server.handle((_req, res) => sendJson(res, 200, { data: Array.from({ length: 500 }, (_, i) => ({ id: `b${i}`, name: 'board' })) }));
    expect((await failure(small.listBoards())).code).toBe('E_MALFORMED_BODY');
    server.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      while (!res.destroyed) {
        res.write(`{"type":"text-delta","delta":"${'y'.repeat(100)}"}\n`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
    const error = await failure(small.ask(streamAsk));
    expect(error.code).toBe('E_STREAM');
    expect(error.partial?.text.length).toBeGreaterThan(0);
    await server.socketClosed(server.requests.at(-1)?.socketId ?? -1);
    await small.close();
  });
});

describe('nothing left behind', () => {
  it('a timed-out, an aborted and a finished request leave no timer of their own', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const quiet = createClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 60_000 });
    server.handle((_req, res) => sendJson(res, 200, { text: 'ok', credits_used: 0, credits_remaining: 1 }));
    await quiet.ask(streamAsk);
    const before = timers();
    server.handle(() => undefined);
    await failure(quiet.ask({ ...streamAsk, timeoutMs: 30 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await failure(quiet.ask({ ...streamAsk, signal: controller.signal }));
    server.handle((_req, res) => sendJson(res, 200, { text: 'ok', credits_used: 0, credits_remaining: 1 }));
    await quiet.ask(streamAsk);
    await quiet.listBoards().catch(() => undefined);
    // Each request armed a 60 s deadline; none may outlive its request and hold the process.
    expect(timers()).toBeLessThanOrEqual(before);
    await quiet.close();
  });
});
