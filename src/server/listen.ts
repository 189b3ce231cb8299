// Starting and stopping the reference service on a socket, and the lines `kbbench serve` prints.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PATHS } from '../protocol/index.js';
import { createReferenceApp, type ReferenceApp } from './app.js';
import { createNodeHandler } from './node-adapter.js';
import { resolveServiceOptions, type ServiceOptions } from './options.js';
import { replayWorkspace, REPLAY_API_KEY, type Recording } from './replay.js';
import { loadWorkspace, type Workspace } from './workspace.js';

export interface ServiceBoardSummary {
  id: string;
  name: string;
  /** The key of the account owning the board. */
  key: string;
  chats: { id: string; name: string; kind: 'answer' | 'judge' }[];
}

export interface RunningService {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:8787`. */
  url: string;
  host: string;
  port: number;
  /** Every account's API key, workspace order (the demo key first in the demo workspace). */
  keys: string[];
  boards: ServiceBoardSummary[];
  workspaceFile: string;
  /** The workspace's default target, for a suite that names none. */
  defaultTarget?: { boardId: string; chatId: string };
  /** The workspace's knowledge base: its `version`, and a sha256 of its documents. */
  knowledgeBase: { version?: string; sha256: string };
  app: ReferenceApp;
  close(): Promise<void>;
}

function summarise(workspace: Workspace): ServiceBoardSummary[] {
  const keyOf = new Map(workspace.accounts.map((account) => [account.id, account.key]));
  return workspace.boards.map((board) => ({
    id: board.id,
    name: board.name,
    key: keyOf.get(board.accountId) ?? '',
    chats: board.chats.map((chat) => ({ id: chat.id, name: chat.name, kind: chat.kind })),
  }));
}

/**
 * Loads the workspace and listens (127.0.0.1 and a free port unless told otherwise). Throws
 * WorkspaceError or ServiceOptionsError for bad input, and the listen error (EADDRINUSE) as is.
 */
export async function startReferenceService(options: ServiceOptions = {}, preloaded?: { workspace?: Workspace; recording?: Recording }): Promise<RunningService> {
  const resolved = resolveServiceOptions(options);
  const recording = preloaded?.recording;
  const workspace = preloaded?.workspace ?? (recording ? replayWorkspace(recording) : await loadWorkspace(resolved.workspacePath));
  const app = createReferenceApp(workspace, resolved, recording);
  const inFlight = new Set<AbortController>();
  const server = createServer({ noDelay: true }, createNodeHandler(app, resolved.maxBodyBytes, inFlight));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      for (const controller of inFlight) controller.abort(new Error('service closing'));
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return {
    url: `http://${host}:${port}`,
    host: resolved.host,
    port,
    keys: workspace.accounts.map((account) => account.key),
    boards: summarise(workspace),
    workspaceFile: workspace.file,
    ...(workspace.defaultTarget ? { defaultTarget: workspace.defaultTarget } : {}),
    knowledgeBase: workspace.knowledgeBase,
    app,
    close,
  };
}

/** One line on how the service behaves under load, so a user knows where its knee will be. */
function loadLine(app: ReferenceApp): string {
  const { options, profiles } = app.context;
  if (options.latencyScale === 0) return 'capacity: unlimited (latency scale 0 answers at once)';
  const pairs = new Set([...profiles.values()].map((p) => `${options.slots ?? p.slots}/${options.queueLimit ?? p.queueLimit}`));
  const [slots, queue] = pairs.size === 1 ? ([...pairs][0] ?? '').split('/') : [];
  const limits = slots === undefined ? 'slots and queue as each model profile sets' : slots === '0' ? 'unlimited' : `${slots} answering at once, ${queue} waiting`;
  const extras = [
    ...(options.degradeQuality ? ['queued answers degraded'] : []),
    ...(options.pauseEveryMs > 0 && options.pauseForMs > 0 ? [`paused ${options.pauseForMs} ms every ${options.pauseEveryMs} ms`] : []),
  ];
  return `capacity per model: ${limits}, then ${options.overloadStatus}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
}

/** What `kbbench serve` prints: where it listens, the key, the boards and a request to try. */
export function describeService(running: RunningService): string[] {
  const replay = running.app.context.replay;
  if (replay) return describeReplay(running, replay.recording);
  const lines = [`kbbench reference service listening on ${running.url}`, `workspace: ${running.workspaceFile}`, loadLine(running.app)];
  const first = running.boards.find((board) => board.chats.some((chat) => chat.kind === 'answer'));
  if (running.keys[0] !== undefined) lines.push(`API key: ${running.keys[0]}`);
  for (const board of running.boards.filter((b) => b.key === running.keys[0])) {
    lines.push(`board ${board.id} (${board.name})`);
    for (const chat of board.chats) lines.push(`  chat ${chat.id} (${chat.name}${chat.kind === 'judge' ? ', judge' : ''})`);
  }
  if (first) {
    const chat = first.chats.find((c) => c.kind === 'answer');
    const query = new URLSearchParams({ board_id: first.id, chat_id: chat?.id ?? '', prompt: 'How long is the refund window?' });
    lines.push('try:', `  curl -s -H 'x-api-key: ${first.key}' '${running.url}${API_PATHS.conversation}?${query.toString()}'`);
  }
  return lines;
}

/** What `serve --from-run` prints: the run it replays, the key, the target and a recorded question to try. */
function describeReplay(running: RunningService, recording: Recording): string[] {
  const models = [...new Set(recording.answers.map((a) => a.model))];
  const first = recording.answers[0];
  const lines = [
    `kbbench reference service listening on ${running.url}`,
    `replaying run ${recording.runId} (${recording.dir}): ${recording.answers.length} recorded answers of ${models.join(', ')}; other questions get 404`,
    `API key: ${REPLAY_API_KEY}`,
    `board ${recording.boardId}`,
    `  chat ${recording.chatId}`,
  ];
  if (first) {
    const query = new URLSearchParams({ board_id: recording.boardId, chat_id: recording.chatId, model: first.model, prompt: first.prompt });
    lines.push('try:', `  curl -s -H 'x-api-key: ${REPLAY_API_KEY}' '${running.url}${API_PATHS.conversation}?${query.toString()}'`);
  }
  return lines;
}
