// End-to-end helpers: run the built CLI as a user would (a child process), start `kbbench serve`.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { runCli as RunCliOfSource } from '../src/cli/run-cli.js';
import type { ServiceOptions, startReferenceService as StartOfSource } from '../src/server/index.js';

export const ROOT = resolve(import.meta.dirname, '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix = 'kbbench-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Called once the process is running (to send it a signal, say). */
  onSpawn?: (child: ChildProcess) => void;
  timeoutMs?: number;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`build first: ${CLI} is missing (npm run build)`);
  return new Promise((resolvePromise, reject) => {
    const env = { ...process.env, KBBENCH_API_KEY: undefined, KBBENCH_BASE_URL: undefined, ...options.env };
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

type RunCli = typeof RunCliOfSource;
let builtRunCli: Promise<RunCli> | undefined;

/** A stream that keeps what is written, as a pipe would (not a TTY: no live bar, no colours). */
function collector(onText?: (text: string) => void): { stream: NodeJS.WriteStream; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      onText?.(chunk.toString());
      done();
    },
  });
  return { stream: Object.assign(stream, { isTTY: false }) as unknown as NodeJS.WriteStream, text: () => text };
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The built CLI (dist/, as the bin runs it) called in this process: for tests whose point is what a
 * command prints and exits with, not a process boundary (signals, pipes, kill -9 keep runCli).
 * Same environment as runCli's child: the caller's, without the key and base URL, plus `env`.
 * Throws when the run left anything behind in this process: signal listeners or process.exitCode.
 */
/** In-process CLI runs under way in this worker, all in one directory (see runCliInProcess), and where the first found the worker. */
let inProcess: { runs: number; cwd: string; home: string } | null = null;

export async function runCliInProcess(args: string[], options: Pick<CliOptions, 'env' | 'cwd'> & { onStderr?: (text: string) => void } = {}): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`build first: ${CLI} is missing (npm run build)`);
  builtRunCli ??= import(pathToFileURL(join(ROOT, 'dist', 'cli', 'run-cli.js')).href).then((m: { runCli: RunCli }) => m.runCli);
  const run = await builtRunCli;
  const merged: Record<string, string | undefined> = { ...process.env, KBBENCH_API_KEY: undefined, KBBENCH_BASE_URL: undefined, ...options.env };
  const env = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  const stdout = collector();
  // What a test would read from a child's stderr pipe as it comes (the live line, say), written by write.
  const stderr = collector(options.onStderr);
  const before = { exitCode: process.exitCode, listeners: STOP_SIGNALS.map((s) => process.listenerCount(s)) };
  const cwd = options.cwd ?? ROOT;
  // One process has one working directory: in-process runs at once in two folders (it.concurrent)
  // would resolve each other's relative paths and leave the worker in a temp folder for later files.
  if (inProcess !== null && inProcess.cwd !== cwd) throw new Error(`runCliInProcess is already running in ${inProcess.cwd}, not ${cwd}: run concurrent tests in other folders through runCli (a child process)`);
  inProcess ??= { runs: 0, cwd, home: process.cwd() };
  // Relative paths resolve against process.cwd() in the CLI: the test's directory is entered for the call.
  process.chdir(cwd);
  inProcess.runs += 1;
  let code: number | null = null;
  try {
    code = await run(args, { stdout: stdout.stream, stderr: stderr.stream, env, cwd, signals: new EventEmitter(), exit: () => {} });
  } finally {
    inProcess.runs -= 1;
    if (inProcess.runs === 0) {
      process.chdir(inProcess.home);
      inProcess = null;
    }
  }
  const after = { exitCode: process.exitCode, listeners: STOP_SIGNALS.map((s) => process.listenerCount(s)) };
  if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`kbbench ${args.join(' ')} left state behind in the test process: ${JSON.stringify({ before, after })}`);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

export interface InProcessServe {
  url: string;
  key: string;
  /** SIGTERM through the command's signal source; resolves with what it printed and its exit code. */
  stop(): Promise<CliResult>;
}

/**
 * `kbbench serve --port 0 …` run by the built CLI in this process (as runCliInProcess runs a command):
 * for a test whose point is that the command starts and says where it listens, not the process (a
 * real SIGTERM, a port held by another process: startServe). Stopped by a SIGTERM on its own signal
 * source; throws when it leaves a listener or process.exitCode behind. Relative paths resolve against ROOT.
 */
export async function startServeInProcess(args: string[]): Promise<InProcessServe> {
  if (!existsSync(CLI)) throw new Error(`build first: ${CLI} is missing (npm run build)`);
  builtRunCli ??= import(pathToFileURL(join(ROOT, 'dist', 'cli', 'run-cli.js')).href).then((m: { runCli: RunCli }) => m.runCli);
  const run = await builtRunCli;
  if (process.cwd() !== ROOT) throw new Error(`startServeInProcess resolves paths against ${ROOT}, not ${process.cwd()}`);
  const env = Object.fromEntries(Object.entries({ ...process.env, KBBENCH_API_KEY: undefined, KBBENCH_BASE_URL: undefined }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  const stdout = collector();
  const stderr = collector();
  const signals = new EventEmitter();
  const before = JSON.stringify({ exitCode: process.exitCode, listeners: STOP_SIGNALS.map((s) => process.listenerCount(s)) });
  let code: number | null = null;
  const done = run(['serve', '--port', '0', ...args], { stdout: stdout.stream, stderr: stderr.stream, env, cwd: ROOT, signals, exit: () => {} }).then((c) => (code = c));
  const started = (): { url: string; key: string } | undefined => {
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout.text())?.[1];
    const key = /key:?\s+(\S+)/i.exec(stdout.text())?.[1];
    return url && key ? { url, key } : undefined;
  };
  // The listening lines are written before the command waits for its signal: poll the collected text.
  for (let waited = 0; started() === undefined; waited += 20) {
    if (code !== null) throw new Error(`kbbench serve ${args.join(' ')} exited ${code} before it listened: ${stderr.text()}`);
    if (waited > 20_000) throw new Error(`kbbench serve ${args.join(' ')} did not say where it listens: ${stdout.text()}${stderr.text()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const { url, key } = started()!;
  return {
    url, key,
    stop: async () => {
      signals.emit('SIGTERM', 'SIGTERM');
      await done;
      const after = JSON.stringify({ exitCode: process.exitCode, listeners: STOP_SIGNALS.map((s) => process.listenerCount(s)) });
      if (after !== before || signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT') > 0) throw new Error(`kbbench serve ${args.join(' ')} left state behind: ${JSON.stringify({ before, after })}`);
      return { code, stdout: stdout.text(), stderr: stderr.text() };
    },
  };
}

export interface ServeHandle {
  url: string;
  key: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `kbbench serve --port 0 …`, parsed from the lines it prints. */
export function startServe(args: string[]): Promise<ServeHandle> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd: ROOT });
  return new Promise((resolvePromise, reject) => {
    let url = '';
    let key = '';
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error('serve did not start')), 20_000);
    lines.on('line', (line) => {
      url ||= /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? '';
      key ||= /key:?\s+(\S+)/i.exec(line)?.[1] ?? '';
      if (url && key) {
        clearTimeout(timer);
        resolvePromise({
          url, key, child,
          stop: () => new Promise((r) => {
            if (child.exitCode !== null) return r();
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}

/** A reference service listening on 127.0.0.1 in this process: a real HTTP server, without a process start. */
export interface InProcessService {
  url: string;
  /** The workspace's first key (the demo key in the demo workspace), as `kbbench serve` prints it. */
  key: string;
  stop(): Promise<void>;
}

/**
 * The built reference service (dist/server, as `kbbench serve` runs it) started in this process with
 * `options` (the service's own option names: `dialect`, `splitWrites`, `crlf`, `latencyScale`…): for
 * tests whose point is what crosses the wire, not `kbbench serve` as a process or its flags.
 */
export async function startServiceInProcess(options: ServiceOptions): Promise<InProcessService> {
  if (!existsSync(CLI)) throw new Error(`build first: ${CLI} is missing (npm run build)`);
  const { startReferenceService } = (await import(pathToFileURL(join(ROOT, 'dist', 'server', 'index.js')).href)) as { startReferenceService: typeof StartOfSource };
  const running = await startReferenceService(options);
  return { url: running.url, key: running.keys[0] ?? '', stop: () => running.close() };
}

export function readNdjson<T = Record<string, unknown>>(path: string): T[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export interface CountingProxy {
  url: string;
  /** Answer requests (ask and continue) that reached the service through the proxy. */
  answers(): number;
  /** Every request that reached the service through the proxy (listings and conversation creation too). */
  requests(): number;
  /** The answer requests' bodies as sent (JSON parsed; a GET's query parameters), oldest first. */
  asked(): Record<string, unknown>[];
  stop(): Promise<void>;
}

/** A pass-through HTTP proxy in front of a service that counts the answer requests it forwards: counting at the server. */
export async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  const { createServer, request } = await import('node:http');
  const target = new URL(upstream);
  let answers = 0;
  let requests = 0;
  const asked: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    requests += 1;
    if (/\/conversation(?:\/[^/]+)?(?:\?|$)/.test(req.url ?? '') && !(req.url ?? '').includes('/conversation/new')) {
      answers += 1;
      const body: Buffer[] = [];
      req.on('data', (d: Buffer) => body.push(d));
      req.on('end', () => {
        const text = Buffer.concat(body).toString();
        asked.push(text === '' ? Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams) : (JSON.parse(text) as Record<string, unknown>));
      });
    }
    const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    answers: () => answers,
    requests: () => requests,
    asked: () => [...asked],
    stop: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

/** A folder holding a `kbbench` that runs the built CLI: what `npm link` puts on PATH, for workflow steps. */
export function kbbenchBinDir(): string {
  const bin = tempDir('kbbench-bin-');
  writeFileSync(join(bin, 'kbbench'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'kbbench'), 0o755);
  return bin;
}

/**
 * A workflow `run:` step as a GitHub runner's bash runs it, with `kbbench` on PATH (what `npm link`
 * gives): `bash -e` is the default shell, `-eo pipefail` what `shell: bash` gives.
 */
export function runWorkflowStep(script: string, cwd: string, env: Record<string, string>, bin: string, shellFlags: readonly string[] = ['-e']): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [...shellFlags, '-c', script], { cwd, env: { ...process.env, KBBENCH_API_KEY: undefined, KBBENCH_BASE_URL: undefined, ...env, PATH: `${bin}:${process.env.PATH}` } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The demo workspace copied into `dir`, the refund window moved from 30 to 45 days in refunds.md only. */
export function demoWorkspaceWithRefundWindowChanged(dir: string): string {
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'suites/demo/workspace.yaml'), join(dir, 'workspace.yaml'));
  cpSync(join(ROOT, 'suites/demo/docs'), join(dir, 'docs'), { recursive: true });
  const refunds = join(dir, 'docs/refunds.md');
  const before = readFileSync(refunds, 'utf8');
  const after = before.replaceAll('30 days', '45 days').replaceAll('30-day', '45-day');
  if (after === before) throw new Error('refunds.md no longer says "30 days": the changed-document tests change nothing');
  writeFileSync(refunds, after);
  return join(dir, 'workspace.yaml');
}

/** The instant loopback server of the memory checks (test/fixtures/memory/instant-server.mjs), its own process. */
export interface InstantServer {
  port: number;
  stop(): void;
}

/** The instant server for every test of a file: started before all, stopped after; its port once started. */
export function instantServerForFile(): { port(): number } {
  let server: InstantServer | undefined;
  beforeAll(async () => {
    server = await startInstantServer();
  });
  afterAll(() => server?.stop());
  return { port: () => server!.port };
}

export async function startInstantServer(): Promise<InstantServer> {
  const server = spawn(process.execPath, [join(ROOT, 'test/fixtures/memory/instant-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once('line', resolve));
  // It exits when its stdin closes.
  return { port: (JSON.parse(line) as { port: number }).port, stop: () => server.stdin?.end() };
}
