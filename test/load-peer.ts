// A peer for load tests: a real HTTP proxy on 127.0.0.1 in front of `kbbench serve` that logs the
// truth (answer requests that arrived, answers it delivered) and can hang (hold every request from
// an instant on, answering none) or cap (forward at most N answer requests per second, the others
// waiting their turn in order, as a service that sustains N/s does).
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

export interface LoadPeer {
  url: string;
  /** Answer requests (ask and continue) that reached the peer. */
  arrivals(): number;
  /** Answers it delivered whole. */
  answers(): number;
  /** From now on, hold every request: nothing is answered, connections stay open. */
  freeze(): void;
  /**
   * Hold every request that arrives from now on; those already here (waiting their turn under the
   * cap) are still answered: a service that stops answering new work at an instant.
   */
  freezeNew(): void;
  /** Answer again: the requests held while frozen are forwarded, in order, as if they had just come. */
  thaw(): void;
  stop(): Promise<void>;
}

const isAnswer = (url: string): boolean => /\/conversation(?:\/[^/]+)?(?:\?|$)/.test(url) && !url.includes('/conversation/new');

export async function startLoadPeer(upstream: string, options: { capPerS?: number } = {}): Promise<LoadPeer> {
  const target = new URL(upstream);
  let arrivals = 0;
  let answers = 0;
  let frozen = false;
  let frozenNew = false;
  const held: Array<{ res: ServerResponse; resume: () => void }> = [];
  const queue: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  if (options.capPerS !== undefined) {
    // A token each 1/N s: the service sustains N answers a second, no more.
    timer = setInterval(() => queue.shift()?.(), 1000 / options.capPerS);
  }
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, answer: boolean): void => {
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
      r.on('end', () => {
        if (answer) answers += 1;
      });
    });
    up.on('error', () => res.destroy());
    up.end(body);
  };
  const server = createServer((req, res) => {
    const answer = isAnswer(req.url ?? '');
    if (answer) arrivals += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const go = (): void => {
        if (answer && options.capPerS !== undefined) queue.push(() => (frozen ? held.push({ res, resume: go }) : forward(req, res, body, answer)));
        else forward(req, res, body, answer);
      };
      if (frozen || frozenNew) held.push({ res, resume: go });
      else go();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals: () => arrivals,
    answers: () => answers,
    freeze: () => {
      frozen = true;
    },
    freezeNew: () => {
      frozenNew = true;
    },
    thaw: () => {
      frozen = false;
      frozenNew = false;
      for (const h of held.splice(0)) h.resume();
    },
    stop: () => new Promise<void>((r) => {
      clearInterval(timer);
      for (const h of held) h.res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
