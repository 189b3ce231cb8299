// Where a run sends its requests: the live service (--base-url) or the embedded reference service.
import { InputError } from '../domain/errors.js';
import type { Suite } from '../domain/suite.js';
import type { EmbeddedServiceOptions, RunSessionOptions } from './options.js';

export interface ServiceHandle {
  url: string;
  key: string;
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
  stop(): Promise<void>;
}

export function resolveIds(options: RunSessionOptions, suite: Suite): { boardId: string; chatId: string } {
  const boardId = options.board ?? suite.target.board_id;
  const chatId = options.chat ?? suite.target.chat_id;
  if (!boardId) throw new InputError('no board to ask: set target.board_id in the suite or pass --board', { file: suite.path, field: 'target.board_id' });
  if (!chatId) throw new InputError('no chat assistant to ask: set target.chat_id in the suite or pass --chat', { file: suite.path, field: 'target.chat_id' });
  return { boardId, chatId };
}

export async function resolveTarget(options: RunSessionOptions, suite: Suite, launch: EmbeddedLauncher): Promise<ResolvedTarget> {
  const ids = resolveIds(options, suite);
  if (options.baseUrl) {
    if (!options.apiKey) {
      throw new InputError('a live service needs an API key: set KBBENCH_API_KEY or pass --api-key-file PATH', { field: '--base-url' });
    }
    return { baseUrl: options.baseUrl, apiKey: options.apiKey, embedded: false, ...ids, stop: async () => undefined };
  }
  const workspacePath = options.embedded.workspacePath ?? suite.workspace;
  const service = await launch({ ...options.embedded, ...(workspacePath ? { workspacePath } : {}) });
  return { baseUrl: service.url, apiKey: service.key, embedded: true, ...ids, stop: () => service.stop() };
}
