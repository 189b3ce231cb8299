// Test support: a tiny node:http server on 127.0.0.1:0 that records every request and socket,
// so wire tests see exactly what the client sent and when connections close.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  socketId: number;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface RawServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Replaces the handler for the following requests. */
  handle(handler: Handler): void;
  /** Resolves when the socket that carried this request closes. */
  socketClosed(socketId: number): Promise<void>;
  readonly socketCount: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startRawServer(): Promise<RawServer> {
  let handler: Handler = (_req, res) => {
    res.end();
  };
  const requests: RecordedRequest[] = [];
  const sockets = new Map<Socket, number>();
  const closed = new Map<number, Promise<void>>();
  const server: Server = createServer(async (raw, res) => {
    const body = await readBody(raw);
    const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
    const recorded = { method: raw.method ?? '', url: raw.url ?? '', path: url.pathname, query: url.searchParams, headers: raw.headers, body, socketId: sockets.get(raw.socket) ?? -1 };
    requests.push(recorded);
    try {
      await handler(recorded, res, raw);
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (socket: Socket) => {
    const id = sockets.size + 1;
    sockets.set(socket, id);
    closed.set(id, new Promise((resolve) => socket.on('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      handler = next;
    },
    socketClosed: (socketId) => closed.get(socketId) ?? Promise.resolve(),
    get socketCount() {
      return sockets.size;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets.keys()) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes pieces with a pause between them, so the client sees them as separate arrivals. */
export async function writeSlowly(res: ServerResponse, pieces: string[], gapMs: number): Promise<void> {
  for (const piece of pieces) {
    res.write(piece);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}
