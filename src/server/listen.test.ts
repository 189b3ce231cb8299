import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { UiChunkSchema } from '../protocol/index.js';
import { describeService, startReferenceService, type RunningService } from './listen.js';
import { ServiceOptionsError } from './options.js';
import { DEMO, sseData } from './test-helpers.js';

let service: RunningService;
const headers = { 'x-api-key': DEMO.key, 'content-type': 'application/json' };
const ids = `board_id=${DEMO.boardId}&chat_id=${DEMO.chatId}`;

beforeAll(async () => {
  service = await startReferenceService({ latencyScale: 0 });
});
afterAll(async () => {
  await service.close();
});

/** Raw body pieces as the client socket delivered them. */
function rawPieces(path: string, extraHeaders: Record<string, string>): Promise<{ status: number; pieces: Buffer[] }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${service.url}${path}`, { headers: { ...headers, ...extraHeaders } }, (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (piece: Buffer) => pieces.push(piece));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, pieces }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends a POST of `bytes` in 64 KiB pieces, each once the last has left, then a boards request on the same
 * socket, and returns everything the socket received (or the error it died of).
 */
async function slowUpload(port: number, framing: Record<string, string>, bytes: number): Promise<{ error?: Error; responses: string }> {
  const socket = connect(port, '127.0.0.1');
  let responses = '';
  let error: Error | undefined;
  socket.on('data', (piece: Buffer) => (responses += piece.toString()));
  socket.on('error', (failure) => (error = failure));
  const head = Object.entries({ host: 'x', 'x-api-key': DEMO.key, ...framing }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`POST /api/conversation?${ids} HTTP/1.1\r\n${head}\r\n`);
  const chunked = framing['transfer-encoding'] === 'chunked';
  const piece = 'x'.repeat(64 * 1024);
  // Each piece once the last has left (the socket's own pace, not a timer's).
  for (let sent = 0; sent < bytes && error === undefined; sent += piece.length) {
    await new Promise((resolve) => socket.write(chunked ? `${piece.length.toString(16)}\r\n${piece}\r\n` : piece, resolve));
  }
  if (chunked) socket.write('0\r\n\r\n');
  socket.write(`GET /api/boards HTTP/1.1\r\nhost: x\r\nx-api-key: ${DEMO.key}\r\n\r\n`);
  // Until both responses' status lines have come, or the socket has died or closed.
  await new Promise<void>((resolve) => {
    const settled = (): void => {
      if (error !== undefined || socket.destroyed || (responses.match(/HTTP\/1\.1 \d+/g)?.length ?? 0) >= 2) resolve();
    };
    socket.on('data', settled);
    socket.on('close', settled);
    settled();
  });
  socket.destroy();
  return { error, responses };
}

describe('the service over HTTP', () => {
  it('serves all seven endpoint forms', async () => {
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const boards = await fetch(`${service.url}/api/boards`, { headers });
    expect((await boards.json()) as unknown).toEqual({ data: [{ id: DEMO.boardId, name: 'Cobalt Desk help centre' }] });
    const created = await fetch(`${service.url}/api/conversation/new`, { method: 'POST', headers: { api_key: DEMO.key }, body: JSON.stringify({ boardId: DEMO.boardId, chatId: DEMO.chatId }) });
    const { conversationId } = (await created.json()) as { conversationId: string };
    const askPost = await fetch(`${service.url}/api/conversation?${ids}`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'How long is the free trial?' }) });
    const askGet = await fetch(`${service.url}/api/conversation?${ids}&prompt=trial&api_key=${DEMO.key}`);
    const continuePost = await fetch(`${service.url}/api/conversation/${conversationId}?${ids}`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'Which plans do you offer?' }) });
    const continueGet = await fetch(`${service.url}/api/conversation/${conversationId}?${ids}&prompt=How%20much%20is%20the%20second%20one%3F`, { headers });
    for (const response of [askPost, askGet, continuePost]) expect(response.status).toBe(200);
    expect(((await continueGet.json()) as { text: string }).text).toContain('€29');
    const chats = (await (await fetch(`${service.url}/api/chats?board_id=${DEMO.boardId}`, { headers })).json()) as { data: { conversations: unknown[] }[] };
    expect(chats.data[0]?.conversations).toHaveLength(1);
  });

  it('streams SSE with keep-alive comments and the answer deltas', async () => {
    const response = await fetch(`${service.url}/api/conversation?${ids}`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'How much does the Team plan cost?', streaming: 'true', include_usage: true }) });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await response.text();
    expect(body.startsWith(': ping\n\n')).toBe(true);
    const chunks = sseData(body).slice(0, -1).map((d) => UiChunkSchema.parse(JSON.parse(d)));
    expect(chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('')).toContain('€29');
    expect(chunks.at(-1)?.type).toBe('usage');
  });

  it('writes ragged pieces, splitting multi-byte characters, when asked', async () => {
    const path = `/api/conversation?${ids}&prompt=How%20much%20does%20the%20Team%20plan%20cost%3F&streaming=true`;
    const whole = await rawPieces(path, {});
    const split = await rawPieces(path, { 'x-kbbench-split': '1' });
    // Chunking differs per request (it is drawn), the answer does not.
    const answerOf = (pieces: Buffer[]): string =>
      sseData(Buffer.concat(pieces).toString('utf8'))
        .filter((d) => d.includes('text-delta'))
        .map((d) => (JSON.parse(d) as { delta: string }).delta)
        .join('');
    expect(answerOf(split.pieces)).toBe(answerOf(whole.pieces));
    expect(answerOf(split.pieces)).toContain('€29');
    expect(split.pieces.length).toBeGreaterThan(50);
    const brokenAlone = split.pieces.filter((piece) => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(piece);
        return false;
      } catch {
        return true;
      }
    });
    expect(brokenAlone.length).toBeGreaterThan(0);
  });

  it('destroys a cut stream and a cut JSON body mid-way', async () => {
    const streamed = await fetch(`${service.url}/api/conversation?${ids}&prompt=trial&streaming=true`, { headers: { ...headers, 'x-kbbench-fault': 'cut' } });
    expect(streamed.status).toBe(200);
    await expect(streamed.text()).rejects.toThrow();
    const json = await fetch(`${service.url}/api/conversation?${ids}&prompt=trial`, { headers: { ...headers, 'x-kbbench-fault': 'cut' } });
    await expect(json.text()).rejects.toThrow();
  });

  it('sends the proxy page, Retry-After and 413 over the wire', async () => {
    const proxy = await fetch(`${service.url}/api/boards`, { headers: { ...headers, 'x-kbbench-fault': '502-html' } });
    expect([proxy.status, proxy.headers.get('content-type')]).toEqual([502, 'text/html; charset=utf-8']);
    expect(await proxy.text()).toContain('502 Bad Gateway');
    const limited = await fetch(`${service.url}/api/boards`, { headers: { ...headers, 'x-kbbench-fault': '429' } });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
    const tooLarge = await fetch(`${service.url}/api/conversation?${ids}`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: string }).error).toBe('Payload Too Large');
  });

  it('stops reading a chunked body that outgrows the limit', async () => {
    const small = await startReferenceService({ latencyScale: 0, maxBodyBytes: 1000 });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${small.url}/api/conversation?${ids}`, { method: 'POST', headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.write(JSON.stringify({ prompt: 'x'.repeat(600) }));
        req.write('x'.repeat(600));
        req.end();
      });
      expect(status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it.each([
    ['declared', { 'content-length': String(3 * 1024 * 1024) }],
    ['chunked', { 'transfer-encoding': 'chunked' }],
  ])('lets a client finish sending a %s body far over the limit: it reads the 413, and the socket lives on', async (_kind, framing) => {
    // A slow sender: a socket reset while it still writes would lose the 413 (EPIPE/ECONNRESET instead).
    const { error, responses } = await slowUpload(service.port, framing, 3 * 1024 * 1024);
    expect(error).toBeUndefined();
    expect(responses.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
  });

  it('answers bad JSON with 400 and unknown paths with 404', async () => {
    const bad = await fetch(`${service.url}/api/conversation?${ids}`, { method: 'POST', headers, body: '{"prompt":' });
    expect(bad.status).toBe(400);
    expect((await fetch(`${service.url}/nowhere`, { headers })).status).toBe(404);
  });

  it('describes itself for `kbbench serve`', () => {
    const lines = describeService(service);
    expect(lines[0]).toBe(`kbbench reference service listening on ${service.url}`);
    expect(lines).toContain(`API key: ${DEMO.key}`);
    expect(lines[2]).toMatch(/^capacity/);
    expect(lines.join('\n')).toContain(`curl -s -H 'x-api-key: ${DEMO.key}' '${service.url}/api/conversation?board_id=${DEMO.boardId}`);
    expect(lines.join('\n')).not.toContain(DEMO.otherBoardId);
  });
});

describe('timing', () => {
  it('closes with a slow stream still open: the stream is cut, not waited for', async () => {
    // Cut, it rejects; waited for, it would end whole (how long close() takes: bench/timing-claims.mjs).
    const slow = await startReferenceService({ latencyScale: 50 });
    const response = await fetch(`${slow.url}/api/conversation?${ids}&prompt=trial&streaming=true`, { headers });
    const reading = response.text();
    await slow.close();
    await expect(reading).rejects.toThrow();
  });
});

describe('starting', () => {
  it('rejects invalid options and a port in use', async () => {
    await expect(startReferenceService({ latencyScale: -1 })).rejects.toBeInstanceOf(ServiceOptionsError);
    await expect(startReferenceService({ port: service.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
