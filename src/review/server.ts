// `kbbench review`'s server: node:http on 127.0.0.1, four routes, hand-written (a framework would add
// routing we do not need and a dependency to audit). Every request must name this host (a DNS-rebinding
// page cannot) and carry the per-session token (another site cannot read it); it serves the page, the
// run's answers as JSON and takes labels, never a file: nothing outside the run directory is reachable.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunInfo } from '../domain/run.js';
import { answerLabels, LABELS_HEADER, labelRows, parseRunLabels } from '../graders/run-labels.js';
import { appendLabelRows, labelsPath, readLabelsText } from '../store/labels-file.js';
import { readRunAnswers, type RunAnswers } from './answers.js';
import { reviewCsp, reviewPage } from './page.js';

export interface ReviewServerOptions {
  runDir: string;
  run: RunInfo;
  /** 0 (default): a free port. */
  port?: number;
  /** The wall clock for `labelled_at` (a label's date, not a duration). */
  now?: () => Date;
}

export interface ReviewServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;
const MAX_NOTE_CHARS = 2000;

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY', 'cross-origin-resource-policy': 'same-origin', ...extra,
  });
  res.end(body);
}
const json = (res: ServerResponse, status: number, value: unknown): void => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function bodyOf(req: IncomingMessage): Promise<string | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A label as the page posts it: `{ item_id, human: 'pass' | 'fail' | null, note }`; null when it is not one. */
function labelOf(text: string, answers: RunAnswers): { item_id: string; human: boolean | null; note: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const v = value as { item_id?: unknown; human?: unknown; note?: unknown };
  if (typeof v !== 'object' || v === null || typeof v.item_id !== 'string' || !answers.samples.has(v.item_id)) return null;
  if (v.human !== 'pass' && v.human !== 'fail' && v.human !== null) return null;
  const note = typeof v.note === 'string' ? v.note.slice(0, MAX_NOTE_CHARS) : '';
  return { item_id: v.item_id, human: v.human === null ? null : v.human === 'pass', note };
}

type PageLabel = { human: 'pass' | 'fail'; note: string };

/** The file's labels as the page takes them: read at start and when a tab comes back (another process may have written). */
function fileLabels(runDir: string): Map<string, PageLabel> {
  const text = readLabelsText(runDir);
  const out = new Map<string, PageLabel>();
  if (text === null) return out;
  for (const [id, l] of answerLabels(parseRunLabels(text, labelsPath(runDir)))) out.set(id, { human: l.human ? 'pass' : 'fail', note: l.note });
  return out;
}

export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const { runDir, run } = options;
  const answers = await readRunAnswers(runDir, run);
  const token = randomBytes(24).toString('base64url');
  const now = options.now ?? (() => new Date());
  // Kept in memory, written through: a label costs one append, not a re-read of a file that grows with every label.
  let labels = fileLabels(runDir);
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!hosts.includes(req.headers.host ?? '')) return send(res, 421, 'text/plain; charset=utf-8', 'this server answers only to its own address (127.0.0.1)\n');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const given = url.searchParams.get('token') ?? (typeof req.headers['x-review-token'] === 'string' ? req.headers['x-review-token'] : null);
    if (!sameToken(given, token)) return send(res, 403, 'text/plain; charset=utf-8', 'the review URL printed by kbbench review carries a token: open that URL\n');
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) return send(res, 403, 'text/plain; charset=utf-8', 'cross-origin request refused\n');
    if (req.method === 'GET' && url.pathname === '/') {
      const nonce = randomBytes(16).toString('base64');
      return send(res, 200, 'text/html; charset=utf-8', reviewPage(nonce, run), { 'content-security-policy': reviewCsp(nonce, true) });
    }
    if (req.method === 'GET' && url.pathname === '/answers.json') return json(res, 200, { run: { run_id: run.run_id, suite: run.suite.name }, answers: answers.answers, labels: Object.fromEntries(labels) });
    if (req.method === 'GET' && url.pathname === '/labels.json') {
      labels = fileLabels(runDir);
      return json(res, 200, Object.fromEntries(labels));
    }
    if (req.method === 'POST' && url.pathname === '/labels') {
      // A JSON body needs a CORS preflight from another origin, which this server never grants.
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return json(res, 415, { error: 'expected application/json' });
      const text = await bodyOf(req);
      const label = text === null ? null : labelOf(text, answers);
      if (label === null) return json(res, 400, { error: 'expected { item_id, human: "pass" | "fail" | null, note }' });
      const sample = answers.samples.get(label.item_id)!;
      appendLabelRows(runDir, LABELS_HEADER, labelRows(sample, answers.specs.get(label.item_id), { human: label.human, note: label.note, at: now().toISOString() }));
      const given: PageLabel | null = label.human === null ? null : { human: label.human ? 'pass' : 'fail', note: label.note };
      if (given === null) labels.delete(label.item_id);
      else labels.set(label.item_id, given);
      return json(res, 200, { item_id: label.item_id, label: given });
    }
    return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: (error as Error).message });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
