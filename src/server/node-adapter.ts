// node:http glue: reads bodies within the size limit and writes complete, streamed or cut responses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { ReferenceApp } from './app.js';
import { payloadTooLarge } from './http-responses.js';
import type { ServiceResponse } from './service-types.js';
import { StreamCutError } from './stream-body.js';

type BodyRead = { ok: true; body: Buffer } | { ok: false };

/**
 * How much of an oversized upload is read and dropped after the 413. Closing at once would reset
 * a client still sending, and the reset would lose the 413 it was about to read.
 */
const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads the body; once it exceeds the limit, resolves at once (nothing more is buffered) and drops
 * the rest as it comes, so the connection stays usable. Past DISCARD_LIMIT_BYTES it is cut.
 * Events, not for-await: leaving a for-await early would destroy the socket.
 */
function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers['content-length'] ?? 0) > maxBodyBytes;
    if (over) resolve({ ok: false });
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > DISCARD_LIMIT_BYTES) req.socket.destroy();
        return;
      }
      if (size <= maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      over = true;
      chunks.length = 0;
      resolve({ ok: false });
    });
    req.on('end', () => resolve(over ? { ok: false } : { ok: true, body: Buffer.concat(chunks) }));
    req.on('error', reject);
    // A client gone mid-upload: 'end' never comes (once settled, this is a no-op).
    req.on('close', () => reject(new Error('the request closed before its body ended')));
  });
}

async function writeStream(res: ServerResponse, stream: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
  res.flushHeaders();
  try {
    for await (const chunk of stream) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await once(res, 'drain', { signal });
    }
    res.end();
  } catch (error) {
    if (error instanceof StreamCutError) {
      // A cut is the point of the fault: let what was written reach the socket first (writes made
      // in the same tick are still buffered, and destroying now would drop them), then cut.
      res.write('', () => res.destroy());
      return;
    }
    // Anything else (client gone, aborted wait) just ends the connection.
    res.destroy(error as Error);
  }
}

async function writeResponse(res: ServerResponse, response: ServiceResponse, signal: AbortSignal): Promise<void> {
  if (res.destroyed) {
    // The client left before the answer was ready: give the stream up so its resources are released.
    await response.stream?.[Symbol.asyncIterator]().return?.();
    return;
  }
  if (response.stream) {
    res.writeHead(response.status, response.headers);
    await writeStream(res, response.stream, signal);
    return;
  }
  const body = Buffer.from(response.body ?? '', 'utf8');
  res.writeHead(response.status, { ...response.headers, 'content-length': String(body.length) });
  if (response.cutAfterBytes === undefined) {
    res.end(body);
    return;
  }
  res.write(body.subarray(0, response.cutAfterBytes), () => res.destroy());
}

/** A node:http request listener for the app; `inFlight` lets close() abort what is still running. */
export function createNodeHandler(
  app: ReferenceApp,
  maxBodyBytes: number,
  inFlight: Set<AbortController>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const controller = new AbortController();
    inFlight.add(controller);
    res.on('close', () => {
      inFlight.delete(controller);
      if (!res.writableFinished) controller.abort(new Error('client went away'));
    });
    void (async () => {
      const read = await readBody(req, maxBodyBytes);
      if (!read.ok) {
        await writeResponse(res, payloadTooLarge(maxBodyBytes), controller.signal);
        return;
      }
      const response = await app.handle({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: read.body,
        signal: controller.signal,
      });
      await writeResponse(res, response, controller.signal);
    })().catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
      else res.destroy();
    });
  };
}
