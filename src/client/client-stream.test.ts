// Wire tests: streamed answers in every dialect, their timing marks and the events API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_DIALECTS, type StreamDialect } from '../protocol/index.js';
import type { AnswerResult } from '../domain/index.js';
import { createClient, type KbClient } from './client.js';
import type { StreamEvent } from './exchange.js';
import { encodeDialect } from '../test-support/dialect-encoders.js';
import { startRawServer, writeSlowly, type RawServer } from '../test-support/raw-server.js';

const CONTENT_TYPE: Record<StreamDialect, string> = {
  'ui-sse': 'text/event-stream',
  'openai-sse': 'text/event-stream',
  'data-stream': 'text/plain; charset=utf-8',
  ndjson: 'application/x-ndjson',
  text: 'text/plain; charset=utf-8',
};
const DELTAS = ['Grüße', ' 😀\r\n', 'line two', '.'];
const GAP_MS = 15;

let server: RawServer;
let client: KbClient;

beforeAll(async () => {
  server = await startRawServer();
  client = createClient({ baseUrl: server.url, apiKey: 'k' });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** Serves the encoded stream one line (or one delta) at a time. */
function serve(dialect: StreamDialect, body: string): void {
  const pieces = dialect === 'text' ? DELTAS : body.split(/(?<=\n)/);
  server.handle(async (_req, res) => {
    res.writeHead(200, { 'content-type': CONTENT_TYPE[dialect] });
    await writeSlowly(res, pieces, GAP_MS);
    res.end();
  });
}

function expectOrderedMarks(result: AnswerResult): void {
  const { sentAt, headersAt, firstChunkAt, lastChunkAt, finishAt, endAt } = result.marks;
  const ordered = [sentAt, headersAt, firstChunkAt, lastChunkAt, finishAt, endAt];
  expect(ordered.every((mark) => typeof mark === 'number')).toBe(true);
  for (let i = 1; i < ordered.length; i++) expect(ordered[i]).toBeGreaterThanOrEqual(ordered[i - 1] as number);
}

describe.each(STREAM_DIALECTS)('a %s stream over the wire', (dialect) => {
  it('is detected, reassembled exactly and timed chunk by chunk', async () => {
    serve(dialect, encodeDialect(dialect, DELTAS, { usage: { credits_used: 0.02885, credits_remaining: 1853.717 } }));
    const result = await client.ask({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true, includeUsage: true });
    expect(result.dialect).toBe(dialect);
    expect(result.streamed).toBe(true);
    expect(result.finished).toBe(true);
    expect(result.text).toBe(DELTAS.join(''));
    expectOrderedMarks(result);
    expect(result.chunks.length).toBeGreaterThanOrEqual(dialect === 'text' ? 2 : DELTAS.length);
    // Chunks written GAP_MS apart arrive apart: the times are arrival times, not one batch.
    const spanMs = (result.marks.lastChunkAt ?? 0) - (result.marks.firstChunkAt ?? 0);
    expect(spanMs).toBeGreaterThan(GAP_MS);
    if (dialect === 'text') {
      expect(result.creditsUsed).toBeNull();
      expect(result.marks.usageAt).toBeNull();
    } else {
      expect(result.creditsUsed).toBe(0.02885);
      expect(result.marks.usageAt).toBeGreaterThanOrEqual(result.marks.finishAt ?? Infinity);
    }
  });
});

describe('stream failures', () => {
  it('a stream that ends without its finish event is a StreamError with the partial text', async () => {
    serve('ui-sse', encodeDialect('ui-sse', ['half', ' an answer'], { finish: false }));
    await expect(client.ask({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true })).rejects.toMatchObject({
      code: 'E_STREAM',
      partial: { status: 200, text: 'half an answer' },
    });
  });

  it('an error chunk is a StreamError with what came before it', async () => {
    serve('ndjson', '{"type":"text-delta","delta":"so far"}\n{"type":"error","errorText":"model overloaded"}\n');
    const promise = client.ask({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true });
    await expect(promise).rejects.toMatchObject({ code: 'E_STREAM', partial: { text: 'so far' } });
    await expect(promise).rejects.toThrow(/model overloaded/);
  });

  it('a forced dialect overrides detection', async () => {
    const forced = createClient({ baseUrl: server.url, apiKey: 'k', dialect: 'text' });
    serve('ui-sse', encodeDialect('ui-sse', ['x']));
    const result = await forced.ask({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true });
    expect(result.dialect).toBe('text');
    expect(result.text.startsWith('data: ')).toBe(true);
    await forced.close();
  });
});

describe('askEvents', () => {
  it('yields headers, chunks, finish, usage and end in order, with arrival times', async () => {
    serve('ui-sse', encodeDialect('ui-sse', ['a', 'b'], { usage: { credits_used: 1 } }));
    const events: StreamEvent[] = [];
    for await (const event of client.askEvents({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true, includeUsage: true })) events.push(event);
    expect(events.map((e) => e.kind)).toEqual(['headers', 'chunk', 'chunk', 'finish', 'usage', 'end']);
    expect(events.map((e) => e.atMs)).toEqual([...events.map((e) => e.atMs)].sort((x, y) => x - y));
    const end = events.at(-1);
    expect(end?.kind === 'end' && end.result.text).toBe('ab');
  });

  it('closes the connection when the consumer stops early', async () => {
    server.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"text-delta","delta":"first"}\n\n');
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      res.end();
    });
    for await (const event of client.askEvents({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true })) {
      if (event.kind === 'chunk') break;
    }
    await server.socketClosed(server.requests.at(-1)?.socketId ?? -1);
  });
});

describe('timing marks', () => {
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it('firstChunkAt is when the first non-empty text arrives, not the first bytes or frames', async () => {
    server.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': ping\n\n');
      await wait(80);
      res.write('data: {"type":"start"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":""}\n\n');
      await wait(80);
      res.end('data: {"type":"text-delta","id":"t","delta":"now"}\n\ndata: {"type":"finish"}\n\n');
    });
    const result = await client.ask({ boardId: 'b', chatId: 'c', prompt: 'p', streaming: true });
    const { sentAt, headersAt, firstChunkAt } = result.marks;
    expect((headersAt ?? 0) - sentAt).toBeLessThan(60);
    expect((firstChunkAt ?? 0) - sentAt).toBeGreaterThanOrEqual(155);
  });

  it('sentAt is taken before the pool: time queued behind a busy connection counts', async () => {
    const single = createClient({ baseUrl: server.url, apiKey: 'k', connections: 1 });
    server.handle(async (_req, res) => {
      await wait(100);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"ok","credits_used":0,"credits_remaining":1}');
    });
    const ask = { boardId: 'b', chatId: 'c', prompt: 'p' };
    const [first, second] = await Promise.all([single.ask(ask), single.ask(ask)]);
    expect(Math.abs(first.marks.sentAt - second.marks.sentAt)).toBeLessThan(20);
    expect((second.marks.headersAt ?? 0) - second.marks.sentAt).toBeGreaterThanOrEqual(195);
    await single.close();
  });
});
