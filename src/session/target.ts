// Where a run sends its requests: the live service (--base-url) or the embedded reference service.
import { InputError } from '../domain/errors.js';
import type { Suite } from '../domain/suite.js';
import { assertMeansDemo, servesDemo } from './demo-guard.js';
import type { EmbeddedServiceOptions, RunConfig } from '../config/run-config.js';

export interface ServiceHandle {
  url: string;
  key: string;
  /** The embedded workspace's default target, for a suite that names none. */
  defaultTarget?: { boardId: string; chatId: string };
  /** The embedded workspace's knowledge base: its `version`, and a sha256 of its documents. */
  knowledgeBase?: { version?: string; sha256: string };
  stop(): Promise<void>;
}

/** Starts the embedded service off the harness's event loop (the CLI passes a child-process launcher). */
export type EmbeddedLauncher = (options: EmbeddedServiceOptions) => Promise<ServiceHandle>;

export interface ResolvedTarget {
  baseUrl: string;
  apiKey: string;
  embedded: boolean;
  boardId: string;
  chatId: string;
  /** Said to the user when the target came from the embedded workspace's default. */
  notice?: string;
  /** What run.json records of the knowledge base (the embedded service's; a live one does not say). */
  knowledgeBase?: { version?: string; sha256: string; demo?: true };
  stop(): Promise<void>;
}

export function resolveIds(
  options: RunConfig,
  suite: Suite,
  fallback?: { boardId: string; chatId: string },
): { boardId: string; chatId: string; notice?: string } {
  const named = { board: options.target.board ?? suite.target.board_id, chat: options.target.chat ?? suite.target.chat_id };
  let { board: boardId, chat: chatId } = named;
  // A suite without a target (a CSV cannot name one) asks the embedded workspace's default; a named
  // board or chat is kept, and the default only completes it when it is the default's own.
  if (fallback !== undefined && (boardId ?? fallback.boardId) === fallback.boardId && (chatId ?? fallback.chatId) === fallback.chatId) {
    boardId ??= fallback.boardId;
    chatId ??= fallback.chatId;
  }
  if (!boardId) throw new InputError('no board to ask: set target.board_id in the suite or pass --board', { file: suite.path, field: 'target.board_id' });
  if (!chatId) throw new InputError('no chat assistant to ask: set target.chat_id in the suite or pass --chat', { file: suite.path, field: 'target.chat_id' });
  if (boardId === named.board && chatId === named.chat) return { boardId, chatId };
  const notice = `the suite names no ${named.board === undefined ? 'board' : 'chat'}: asking the embedded workspace's default target, board ${boardId}, chat ${chatId}`;
  return { boardId, chatId, notice };
}

export async function resolveTarget(options: RunConfig, suite: Suite, launch: EmbeddedLauncher): Promise<ResolvedTarget> {
  if (options.target.baseUrl) {
    const ids = resolveIds(options, suite);
    if (!options.target.apiKey) {
      throw new InputError('a live service needs an API key: set KBBENCH_API_KEY or pass --api-key-file PATH', { field: '--base-url' });
    }
    return { baseUrl: options.target.baseUrl, apiKey: options.target.apiKey, embedded: false, ...ids, stop: async () => undefined };
  }
  const workspacePath = options.embedded.workspacePath ?? suite.workspace;
  assertMeansDemo(options, suite, workspacePath);
  const service = await launch({ ...options.embedded, ...(workspacePath ? { workspacePath } : {}) });
  let ids: ReturnType<typeof resolveIds>;
  try {
    ids = resolveIds(options, suite, service.defaultTarget);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return {
    baseUrl: service.url, apiKey: service.key, embedded: true, ...ids, ...(service.knowledgeBase ? { knowledgeBase: { ...service.knowledgeBase, ...(servesDemo(workspacePath) ? { demo: true as const } : {}) } } : {}), stop: () => service.stop(),
  };
}
