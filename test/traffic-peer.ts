// A peer for traffic replays: a real HTTP proxy on 127.0.0.1 in front of the reference service that
// stamps each answer request (when it arrived, its question, its conversation) and when its answer ended.
import { createServer, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Arrival {
  atMs: number;
  answeredAtMs: number | null;
  question: string;
  /** The conversation id in the path (`/conversation/<id>`), null for a one-time question. */
  conversation: string | null;
  /** The `model` the request named; null: the service's default. */
  model: string | null;
}

export interface TrafficPeer {
  url: string;
  arrivals: Arrival[];
  stop(): Promise<void>;
}

const ANSWER = /\/conversation(?:\/([^/?]+))?(?:\?|$)/;

export async function startTrafficPeer(upstream: string): Promise<TrafficPeer> {
  const target = new URL(upstream);
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const match = ANSWER.exec(req.url ?? '');
    const answer = match !== null && !(req.url ?? '').includes('/conversation/new');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let stamp: Arrival | null = null;
      if (answer) {
        const sent = JSON.parse(body.toString() || '{}') as { prompt?: string; model?: string };
        const query = new URL(req.url!, 'http://x').searchParams;
        const question = sent.prompt ?? query.get('prompt') ?? '';
        stamp = { atMs: performance.now(), answeredAtMs: null, question, conversation: match[1] ?? null, model: sent.model ?? query.get('model') };
        arrivals.push(stamp);
      }
      const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
        r.on('end', () => {
          if (stamp) stamp.answeredAtMs = performance.now();
        });
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, arrivals, stop: () => new Promise((ok) => server.close(() => ok())) };
}
