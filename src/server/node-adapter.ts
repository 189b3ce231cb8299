// node:http glue: reads bodies within the size limit and writes complete, streamed or cut responses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { ReferenceApp } from './app.js';
import { payloadTooLarge } from './http-responses.js';
import type { ServiceResponse } from './service-types.js';
import { StreamCutError } from './stream-body.js';

type BodyRead = { ok: true; body: Buffer } | { ok: false };

/** Reads the body, giving up (without buffering more) once it exceeds the limit. */
async function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBodyBytes) return { ok: false };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) return { ok: false };
    chunks.push(chunk);
  }
  return { ok: true, body: Buffer.concat(chunks) };
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
        // The rest of the body is not read, so the connection cannot be reused.
        res.setHeader('connection', 'close');
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
