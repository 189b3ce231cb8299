// A hostile service for end-to-end tests: a real HTTP server on 127.0.0.1 that lists one board and
// answers every question as the test says (echoing the key, lying about credits, asking for long
// waits), so the CLI is tested against what crosses the wire, not a mocked fetch.
import type { ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRawServer, sendJson, type RawServer, type RecordedRequest } from '../src/test-support/raw-server.js';

export const HOSTILE_BOARD = 'board-hostile';
export const HOSTILE_CHAT = 'chat-hostile';

export interface HostileServer extends RawServer {
  /** Answers the ask endpoint (the board listing is always answered). */
  answer(handler: (req: RecordedRequest, res: ServerResponse, key: string) => void | Promise<void>): void;
  /** Answers the board listing (default: the one board). */
  boards(handler: (req: RecordedRequest, res: ServerResponse, key: string) => void | Promise<void>): void;
}

export function keyOf(req: RecordedRequest): string {
  const header = req.headers['x-api-key'] ?? req.headers['api_key'];
  return (Array.isArray(header) ? header[0] : header) ?? req.query.get('api_key') ?? '';
}

export async function startHostileServer(): Promise<HostileServer> {
  const raw = await startRawServer();
  type Answer = (req: RecordedRequest, res: ServerResponse, key: string) => void | Promise<void>;
  let answer: Answer = (_req, res, key) => sendJson(res, 200, { text: `you said ${key}`, credits_used: 0.01, credits_remaining: 10 });
  let boards: Answer = (_req, res) => sendJson(res, 200, { data: [{ id: HOSTILE_BOARD, name: 'hostile' }] });
  raw.handle((req, res) => (req.path === '/api/boards' ? boards(req, res, keyOf(req)) : answer(req, res, keyOf(req))));
  return Object.assign(raw, {
    answer: (next: Answer) => {
      answer = next;
    },
    boards: (next: Answer) => {
      boards = next;
    },
  });
}

/** A suite of `n` one-time questions (JSON answers, no checks) on the hostile board, written in `dir`. */
export function hostileSuite(dir: string, n: number, extra = ''): string {
  const cases = Array.from({ length: n }, (_, i) => `  - id: case-${i}\n    prompt: Question ${i}?\n`).join('');
  const path = join(dir, 'hostile.yaml');
  writeFileSync(path, `name: hostile\ntarget: { board_id: ${HOSTILE_BOARD}, chat_id: ${HOSTILE_CHAT} }\nmodels: [gpt-4o]\ndefaults: { streaming: false }\n${extra}cases:\n${cases}`);
  return path;
}
