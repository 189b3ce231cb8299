// Starts the embedded reference service in a child process, so its work never shares (or bends)
// the harness's event loop and measurements; stops it at the end of the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ConfigError, ConnectionError, InputError } from '../domain/errors.js';
import type { ServiceOptions } from '../server/index.js';
import type { EmbeddedServiceOptions } from '../config/run-config.js';

export interface EmbeddedService {
  url: string;
  /** The workspace's first key: the harness authenticates with it like any client would. */
  key: string;
  /** The workspace's default target, for a suite that names none. */
  defaultTarget?: { boardId: string; chatId: string };
  /** The knowledge base served: the workspace's `version`, and a sha256 of its documents. */
  knowledgeBase?: { version?: string; sha256: string };
  stop(): Promise<void>;
}

const SERVER_ENTRY = fileURLToPath(new URL('../server/main.js', import.meta.url));

/**
 * What the service needs of the environment: nothing but what Node itself reads. It never gets the
 * rest (the API key, tokens of CI), so no workspace or fault can make it quote them.
 */
const CHILD_ENV_NAMES = ['PATH', 'TZ', 'LANG', 'LC_ALL', 'TMPDIR', 'SYSTEMROOT'] as const;

export function embeddedChildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const child: NodeJS.ProcessEnv = {};
  for (const name of CHILD_ENV_NAMES) if (env[name] !== undefined) child[name] = env[name];
  return child;
}
const READY_TIMEOUT_MS = 20_000;

interface ReadyLine {
  url: string;
  keys: string[];
  default_target?: { board_id: string; chat_id: string };
  knowledge_base?: { version?: string; sha256: string };
}

function readReadyLine(child: ChildProcess): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const timer = setTimeout(() => reject(new ConnectionError('the embedded service did not start in time', 'ETIMEDOUT')), READY_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      try {
        const ready = JSON.parse(line) as Partial<ReadyLine> & { error?: string; code?: string };
        if (ready.url && ready.keys) {
          return resolve({
            url: ready.url, keys: ready.keys, ...(ready.default_target ? { default_target: ready.default_target } : {}), ...(ready.knowledge_base ? { knowledge_base: ready.knowledge_base } : {}),
          });
        }
        // `{error, code}`: the service could not start; a bad workspace or option is the user's to fix.
        const invalid = ready.code === 'WORKSPACE_INVALID' || ready.code === 'SERVICE_OPTIONS_INVALID';
        const message = `the embedded service could not start: ${ready.error ?? line}`;
        reject(invalid ? new InputError(message) : new ConnectionError(message, ready.code));
      } catch {
        reject(new ConnectionError(`the embedded service said something unexpected: ${line.slice(0, 200)}`, undefined));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      // Exit 2 is the service's word for bad input (an invalid workspace): the user's to fix.
      const detail = stderr.trim() || `exit ${code}`;
      reject(code === 2 ? new InputError(`the embedded service refused its workspace: ${detail}`) : new ConnectionError(`the embedded service failed to start: ${detail}`, undefined));
    });
  });
}

/** The run options the child takes, one by one: its option schema is strict, and it needs nothing else. */
const CHILD_OPTION_KEYS = [
  'workspacePath',
  'seed',
  'latencyScale',
  'dialect',
  'faultRate',
  'judgeFaultRate',
  'rateLimitRate',
  'retryAfterS',
  'stallMs',
  'stallRate',
  'cutRate',
  'degradeQuality',
  'pauseEveryMs',
  'pauseForMs',
] as const satisfies readonly (keyof EmbeddedServiceOptions & keyof ServiceOptions)[];

/** The child's ServiceOptions: a loopback host, a free port, and the run options it knows (unset ones left to its defaults). */
export function childServiceOptions(options: EmbeddedServiceOptions): ServiceOptions {
  const child: Record<string, unknown> = { host: '127.0.0.1', port: 0 };
  for (const key of CHILD_OPTION_KEYS) if (options[key] !== undefined) child[key] = options[key];
  return child as ServiceOptions;
}

/** `env`: the CLI's environment (the process's, or a test's); the child gets only what Node reads of it. */
export async function startEmbeddedService(options: EmbeddedServiceOptions, env: NodeJS.ProcessEnv = process.env): Promise<EmbeddedService> {
  // Its own process group: a Ctrl-C in the terminal reaches the harness alone, which then lets
  // requests in flight finish before it stops the service (stdin closing stops it if we die).
  const child = spawn(process.execPath, [SERVER_ENTRY, JSON.stringify(childServiceOptions(options))], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: embeddedChildEnv(env),
    detached: true,
  });
  let ready: ReadyLine;
  try {
    ready = await readReadyLine(child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const key = ready.keys[0];
  if (!key) throw new ConfigError('the embedded workspace has no account key');
  return {
    url: ready.url,
    key,
    ...(ready.default_target ? { defaultTarget: { boardId: ready.default_target.board_id, chatId: ready.default_target.chat_id } } : {}),
    ...(ready.knowledge_base ? { knowledgeBase: ready.knowledge_base } : {}),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      // The timer is cleared at once, so a quick exit does not keep the CLI alive for the full wait.
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 3000)))]);
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
