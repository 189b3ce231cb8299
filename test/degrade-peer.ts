// A peer whose answers degrade under load: a real HTTP proxy on 127.0.0.1 in front of `kbbench serve`
// that holds each answer request for a service time, and above a concurrency asks the service an
// unrelated question instead: the answer arrives as fast, and is wrong (vLLM #17886's shape).
import { createServer, request } from 'node:http';

export interface DegradePeer {
  url: string;
  /** Answer requests that arrived, and those answered wrong on purpose. */
  arrivals(): number;
  degraded(): number;
  stop(): Promise<void>;
}

const isAnswer = (url: string): boolean => /\/conversation(?:\/[^/]+)?(?:\?|$)/.test(url) && !url.includes('/conversation/new');
const UNRELATED = 'What is the weather like on Mars today?';

export async function startDegradePeer(upstream: string, options: { serviceMs: number; maxGoodInFlight: number }): Promise<DegradePeer> {
  const target = new URL(upstream);
  let inFlight = 0;
  let arrivals = 0;
  let degraded = 0;
  const server = createServer((req, res) => {
    const answer = req.method === 'POST' && isAnswer(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      const headers = { ...req.headers };
      if (answer) {
        arrivals += 1;
        inFlight += 1;
        res.on('close', () => {
          inFlight -= 1;
        });
        if (inFlight > options.maxGoodInFlight) {
          degraded += 1;
          body = Buffer.from(JSON.stringify({ ...(JSON.parse(body.toString('utf8')) as object), prompt: UNRELATED }));
          headers['content-length'] = String(body.length);
        }
      }
      const forward = (): void => {
        const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', () => res.destroy());
        up.end(body);
      };
      if (answer) setTimeout(forward, options.serviceMs);
      else forward();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals: () => arrivals,
    degraded: () => degraded,
    stop: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
