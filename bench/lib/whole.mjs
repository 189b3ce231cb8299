// Shared pieces of the peer benchmarks, which measure kbbench as a whole process (`node dist/cli/main.js
// run ...`, only through the CLI) beside other tools, each in a process of its own, against a server in
// a child process on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { measure } from './proc.mjs';
import { startChild } from './stats.mjs';
import { clearTimeout, setTimeout } from 'node:timers';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
export const KB_SERVER = join(ROOT, 'bench', 'servers', 'kb-server.mjs');
export const BARE = join(ROOT, 'bench', 'clients', 'bare-undici.mjs');
export const BOARD = 'bench-board';
export const CHAT = 'bench-chat';
export const API_KEY = 'bench';
export const ASK_PATH = `/api/conversation?board_id=${BOARD}&chat_id=${CHAT}`;
/** The one prompt of the throughput suites, so every tool sends the same body. */
export const PROMPT = 'How long is the free trial?';

/** The JSON body kbbench sends for a one-time question (seen on the wire): streaming as a string. */
export const askBody = (prompt, streaming) => JSON.stringify({ prompt, streaming: streaming ? 'true' : 'false', include_usage: Boolean(streaming) });
/** The headers kbbench sends with it (--auth header is the default). */
export const askHeaders = (apiKey = API_KEY) => ({ 'content-type': 'application/json', 'x-api-key': apiKey });

/** bench/servers/kb-server.mjs in a child process: { origin, stop, ready }. */
export async function startKbServer(mode) {
  const server = await startChild(KB_SERVER, [mode]);
  return { ...server, origin: `http://127.0.0.1:${server.ready.port}` };
}

export async function getJson(url) {
  const response = await request(url);
  return response.body.json();
}

/** A suite YAML of the given cases [{ id, prompt }], no models (the service's default model). */
export function writeSuite(dir, name, cases, target = { board_id: BOARD, chat_id: CHAT }) {
  const lines = [`name: ${name}`, `target: { board_id: ${target.board_id}, chat_id: ${target.chat_id} }`, 'cases:'];
  for (const c of cases) lines.push(`  - id: ${c.id}`, `    prompt: ${JSON.stringify(c.prompt)}`);
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/**
 * `node dist/cli/main.js run SUITE --base-url ORIGIN --board --chat --quiet --out DIR ...flags` with
 * KBBENCH_API_KEY, measured as a whole process. Returns { proc, run, summary } (run.json, summary.json).
 */
export async function runKbbench({ suite, origin, outDir, flags = [], node = process.execPath, apiKey = API_KEY, board = BOARD, chat = CHAT, timeoutMs = 180_000 }) {
  mkdirSync(join(outDir, '..'), { recursive: true });
  // No suite: a --traffic log alone is the suite.
  const args = [CLI, 'run', ...(suite === undefined ? [] : [suite]), '--base-url', origin, '--board', board, '--chat', chat, '--quiet', '--out', outDir, ...flags];
  const proc = await measure(node, args, { env: { ...process.env, KBBENCH_API_KEY: apiKey }, timeoutMs });
  if (proc.code !== 0) throw new Error(`kbbench run exited ${proc.code}${proc.timed_out ? ' (timed out)' : ''}: ${proc.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  const run = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
  const summary = JSON.parse(readFileSync(join(outDir, 'summary.json'), 'utf8'));
  return { proc, run, summary };
}

/**
 * What the instant-server peer benchmarks share: a temp folder, bench/servers/kb-server.mjs instant
 * in its own process, and a suite of `cases` cases that all ask PROMPT. Returns { dir, server, suite }.
 */
export async function instantSetup(name, cases) {
  const dir = mkdtempSync(join(tmpdir(), `kbbench-bench-${name}-`));
  const server = await startKbServer('instant');
  const suite = writeSuite(dir, name, Array.from({ length: cases }, (_, i) => ({ id: `c${i}`, prompt: PROMPT })));
  return { dir, server, suite };
}

/** bench/clients/bare-undici.mjs in its own process, measured; returns { proc, result }. */
export async function runBare(options, { timeoutMs = 180_000 } = {}) {
  const proc = await measure(process.execPath, [BARE, JSON.stringify({ apiKey: API_KEY, path: ASK_PATH, ...options })], { timeoutMs });
  if (proc.code !== 0) throw new Error(`bare undici loop exited ${proc.code}: ${proc.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  return { proc, result: JSON.parse(proc.stdout.trim().split('\n').at(-1)) };
}

/** The tools of round `round` (0-based), rotated one place a round so drift hits each alike. */
export const rotated = (names, round) => names.map((_, i) => names[(i + round) % names.length]);

export function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** The 1-minute load average, to show what else the shared cores were doing. */
export const load1 = () => Number(loadavg()[0].toFixed(2));

/**
 * A workspace for `kbbench serve` made from the demo one, with documents at absolute paths and the
 * largest balance the schema allows, so a long benchmark never runs out of credits.
 */
export function writeServeWorkspace(dir) {
  const demoDir = join(ROOT, 'suites', 'demo');
  const text = `docs_root: ${join(demoDir, 'docs')}\n` + readFileSync(join(demoDir, 'workspace.yaml'), 'utf8')
    .replace(/credits: \d+/g, 'credits: 9999999999')
    .replace(/- docs\//g, `- ${join(demoDir, 'docs')}/`);
  const path = join(dir, 'serve-workspace.yaml');
  writeFileSync(path, text);
  return path;
}

/**
 * `node dist/cli/main.js serve --port 0 ...args` in a child process; reads its URL and API key from
 * what it prints. Returns { origin, apiKey, board, chat, child, stop }.
 */
export function startServe(args = []) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    const found = {};
    const timer = setTimeout(() => reject(new Error('kbbench serve did not start')), 20_000);
    child.once('exit', (code) => reject(new Error(`kbbench serve exited ${code} before it was ready`)));
    lines.on('line', (line) => {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (url) found.origin = url[1];
      const key = /^API key: (\S+)/.exec(line);
      if (key) found.apiKey = key[1];
      const board = /^board (\S+)/.exec(line);
      if (board && !found.board) found.board = board[1];
      const chat = /^\s+chat (\S+)/.exec(line);
      if (chat && !found.chat) found.chat = chat[1];
      if (found.origin && found.apiKey && found.board && found.chat) {
        clearTimeout(timer);
        lines.removeAllListeners('line');
        const stop = async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((done) => child.once('exit', done));
          child.kill('SIGTERM');
          await Promise.race([exited, delay(5000)]);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        };
        resolve({ ...found, child, stop });
      }
    });
  });
}
