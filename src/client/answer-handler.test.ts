// Wire tests of the answer's dispatch handler: what an answer costs (counts, never times) and that
// its chunks are stamped one by one as they arrive, even when several arrive in one read.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type KbClient } from './client.js';
import { startRawServer, type RawServer } from '../test-support/raw-server.js';

let server: RawServer;
let client: KbClient;
const RealAbortController = globalThis.AbortController;

beforeAll(async () => {
  server = await startRawServer();
  client = createClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 60_000 });
});
afterEach(() => {
  globalThis.AbortController = RealAbortController;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const frame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
const ask = { boardId: 'b', chatId: 'c', prompt: 'p', streaming: true };

describe('answer dispatch handler', () => {
  it('makes no AbortController per answer, with a caller signal and a deadline (one per request showed in load-test profiles)', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(frame({ type: 'text-delta', id: 't', delta: 'hi' }) + frame({ type: 'finish' }));
    });
    const caller = new RealAbortController();
    let made = 0;
    globalThis.AbortController = class extends RealAbortController {
      constructor() {
        super();
        made += 1;
      }
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => client.ask({ ...ask, signal: caller.signal })));
    expect(results.map((r) => r.text)).toEqual(Array(20).fill('hi'));
    expect(made).toBe(0);
  });

  it('hands over a finished answer whose text, chunks and marks agree', async () => {
    const deltas = ['one ', 'two ', 'three'];
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(deltas.map((d) => frame({ type: 'text-delta', id: 't', delta: d })).join('') + frame({ type: 'finish' }) + frame({ type: 'usage', credits_used: 0.5 }));
    });
    const result = await client.ask(ask);
    expect(result.text).toBe('one two three');
    expect(result.chunks.map((c) => c.text)).toEqual(deltas);
    expect(result.marks.firstChunkAt).toBe(result.chunks[0]!.atMs);
    expect(result.marks.lastChunkAt).toBe(result.chunks.at(-1)!.atMs);
    expect(result.marks.headersAt).not.toBeNull();
    expect(result.marks.sentAt).toBeLessThanOrEqual(result.marks.headersAt!);
    expect(result.creditsUsed).toBe(0.5);
  });

  it('reuses one connection for sequential answers', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(frame({ type: 'text-delta', id: 't', delta: 'x' }) + frame({ type: 'finish' }));
    });
    const before = server.requests.length;
    for (let i = 0; i < 5; i += 1) await client.ask(ask);
    const sockets = new Set(server.requests.slice(before).map((r) => r.socketId));
    expect(sockets.size).toBe(1);
  });
});
