// Running the reference service as a child process: one JSON line out on start, a clean close on request.
import { startReferenceService, type RunningService } from './listen.js';
import { ServiceOptionsError } from './options.js';
import { WorkspaceError } from './workspace.js';

/** What the child needs from its process; main.ts supplies the real one, tests a fake. */
export interface ChildHost {
  /** Arguments after the script: optionally one JSON object of ServiceOptions. */
  args: readonly string[];
  writeStdout(line: string): void;
  writeStderr(line: string): void;
  /** Calls `listener` once on SIGTERM, SIGINT, stdin closing or the parent disconnecting. */
  onShutdownRequest(listener: (reason: string) => void): void;
  exit(code: number): void;
}

/** The one stdout line a parent waits for: `{"url","keys"}` on success, `{"error","code"}` on failure. */
export interface ChildReadyLine {
  url: string;
  keys: string[];
  /** The workspace's default target (absent when it names none). */
  default_target?: { board_id: string; chat_id: string };
  /** What the harness records in run.json of the knowledge base served. */
  knowledge_base?: { version?: string; sha256: string };
}

function parseArgs(args: readonly string[]): unknown {
  const raw = args[0];
  if (raw === undefined || raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw new ServiceOptionsError('(options JSON)', (error as Error).message);
  }
}

function fail(host: ChildHost, error: unknown): void {
  const invalidInput = error instanceof WorkspaceError || error instanceof ServiceOptionsError;
  const code = invalidInput ? error.code : ((error as NodeJS.ErrnoException).code ?? 'SERVICE_START_FAILED');
  const message = (error as Error).message ?? String(error);
  host.writeStdout(JSON.stringify({ error: message, code }));
  host.writeStderr(`kbbench reference service: ${message}`);
  host.exit(invalidInput ? 2 : 1);
}

/** Starts the service, announces it, and closes it when asked; resolves once it is up (or has failed). */
export async function runChildService(host: ChildHost): Promise<RunningService | undefined> {
  let running: RunningService;
  try {
    running = await startReferenceService(parseArgs(host.args) as Record<string, unknown>);
  } catch (error) {
    fail(host, error);
    return undefined;
  }
  const target = running.defaultTarget;
  const ready: ChildReadyLine = {
    url: running.url, keys: running.keys, ...(target ? { default_target: { board_id: target.boardId, chat_id: target.chatId } } : {}), knowledge_base: running.knowledgeBase,
  };
  host.writeStdout(JSON.stringify(ready));
  host.onShutdownRequest(() => {
    void running.close().then(
      () => host.exit(0),
      () => host.exit(1),
    );
  });
  return running;
}
