// Loading a workspace file: YAML, validated with zod, documents read and split; errors name file, line and field.
import { createHash, type Hash } from 'node:crypto';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { expandDocumentEntry } from './document-glob.js';
import { splitMarkdown, type Passage } from './markdown.js';
import type { ModelProfileOverride } from './model-profiles.js';
import { creditsToUnits } from './model-profiles.js';
import { WorkspaceSpecSchema, type ChatSpec, type WorkspaceSpec } from './workspace-schema.js';

export interface KnowledgeDocument {
  /** Path relative to the workspace file's folder, as written there. */
  name: string;
  path: string;
  title: string;
}

export interface WorkspaceChat {
  id: string;
  name: string;
  kind: 'answer' | 'judge';
  boardId: string;
  documents: KnowledgeDocument[];
  passages: Passage[];
}

export interface WorkspaceBoard {
  id: string;
  name: string;
  accountId: string;
  chats: WorkspaceChat[];
}

export interface WorkspaceAccount {
  id: string;
  name: string;
  key: string;
  creditsUnits: number;
}

export interface Workspace {
  file: string;
  name: string;
  accounts: WorkspaceAccount[];
  boards: WorkspaceBoard[];
  models: Record<string, ModelProfileOverride>;
  /** The board and chat a suite without a target asks. */
  defaultTarget?: { boardId: string; chatId: string };
  /** What runs record of the knowledge base: the workspace's `version`, and a sha256 of every document served. */
  knowledgeBase: { version?: string; sha256: string };
}

/** A workspace that cannot be used; `field` is a path such as `boards[0].chats[1].documents[2]`. */
export class WorkspaceError extends Error {
  readonly code = 'WORKSPACE_INVALID';
  constructor(
    readonly file: string,
    readonly field: string,
    readonly reason: string,
    readonly line?: number,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${field === '' ? '' : `${field}: `}${reason}`);
    this.name = 'WorkspaceError';
  }
}

export function formatFieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

type YamlDocument = ReturnType<typeof parseDocument>;

/** The line of the deepest YAML node that exists along `path`, for error messages. */
function lineOf(doc: YamlDocument, counter: LineCounter, path: readonly PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

function parseSpec(text: string, file: string): { spec: WorkspaceSpec; locate: (path: PropertyKey[]) => number | undefined } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0]?.line;
    throw new WorkspaceError(file, '', `invalid YAML: ${yamlError.message.split('\n')[0] ?? ''}`, line);
  }
  const locate = (path: PropertyKey[]): number | undefined => lineOf(doc, counter, path);
  const parsed = WorkspaceSpecSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    throw new WorkspaceError(file, formatFieldPath(issue.path), issue.message, locate(issue.path));
  }
  return { spec: parsed.data, locate };
}

function checkReferences(spec: WorkspaceSpec, file: string, locate: (path: PropertyKey[]) => number | undefined): void {
  const fail = (path: PropertyKey[], reason: string): never => {
    throw new WorkspaceError(file, formatFieldPath(path), reason, locate(path));
  };
  const seen = (values: string[], label: string, pathOf: (i: number) => PropertyKey[]): void => {
    const first = new Map<string, number>();
    values.forEach((value, i) => {
      if (first.has(value)) fail(pathOf(i), `duplicate ${label} ${JSON.stringify(value)}`);
      first.set(value, i);
    });
  };
  seen(spec.accounts.map((a) => a.id), 'account id', (i) => ['accounts', i, 'id']);
  seen(spec.accounts.map((a) => a.key), 'account key', (i) => ['accounts', i, 'key']);
  seen(spec.boards.map((b) => b.id), 'board id', (i) => ['boards', i, 'id']);
  const chatPaths = spec.boards.flatMap((b, i) => b.chats.map((c, j) => ({ id: c.id, path: ['boards', i, 'chats', j, 'id'] })));
  seen(chatPaths.map((c) => c.id), 'chat id', (i) => chatPaths[i]?.path ?? []);
  const accountIds = new Set(spec.accounts.map((a) => a.id));
  spec.boards.forEach((board, i) => {
    if (!accountIds.has(board.account)) fail(['boards', i, 'account'], `no account with id ${JSON.stringify(board.account)}`);
  });
  const target = spec.default_target;
  if (target !== undefined) {
    const board = spec.boards.find((b) => b.id === target.board_id);
    if (board === undefined) fail(['default_target', 'board_id'], `no board with id ${JSON.stringify(target.board_id)}`);
    if (!board?.chats.some((c) => c.id === target.chat_id && c.kind === 'answer')) {
      fail(['default_target', 'chat_id'], `board ${target.board_id} has no answer chat with id ${JSON.stringify(target.chat_id)}`);
    }
  }
}

/** A workspace file larger than this is refused (it names documents; it does not hold them). */
export const MAX_WORKSPACE_BYTES = 4 * 1024 * 1024;

/**
 * Reads at most `maxBytes` (+1, to see there is more) from a file, a pipe or a device, so a
 * workspace linked to /dev/zero ends in an error, not in gigabytes. (The service shares no code with
 * the harness but protocol/: suite/bounded-read.ts is the harness's counterpart.)
 */
async function readBounded(path: string, maxBytes: number): Promise<string | null> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let total = 0;
    for (let n = 1; n > 0 && total < buffer.length; total += n) n = (await handle.read(buffer, total, buffer.length - total, null)).bytesRead;
    return total > maxBytes ? null : buffer.subarray(0, total).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** A knowledge document larger than this is refused: the service keeps every passage in memory. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/**
 * The documents root, symlinks resolved: a workspace may serve only files inside it, so a workspace
 * that names `../../etc/passwd` or `/proc/self/environ` cannot turn answers into a file reader.
 */
async function documentsRoot(spec: WorkspaceSpec, folder: string, file: string, locate: (path: PropertyKey[]) => number | undefined): Promise<string> {
  const root = resolve(folder, spec.docs_root ?? '.');
  try {
    return await realpath(root);
  } catch (error) {
    throw new WorkspaceError(file, 'docs_root', `cannot open the documents root ${root}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, locate(['docs_root']));
  }
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** Reads one document, refusing anything outside the root (symlinks followed first), not a file, or too large. */
async function readDocument(path: string, root: string): Promise<string> {
  const real = await realpath(path);
  if (!inside(root, real)) {
    throw new Error(`document ${path} is outside the documents root ${root} (name a docs_root in the workspace to serve another folder)`);
  }
  const info = await stat(real);
  if (!info.isFile()) throw new Error(`document ${path} is not a regular file`);
  if (info.size > MAX_DOCUMENT_BYTES) throw new Error(`document ${path} is larger than the limit of ${MAX_DOCUMENT_BYTES} bytes`);
  return readFile(real, 'utf8');
}

async function loadChat(
  chat: ChatSpec,
  boardId: string,
  folder: string,
  root: string,
  fail: (documentIndex: number, reason: string) => never,
  documentsHash: Hash,
): Promise<WorkspaceChat> {
  const documents: KnowledgeDocument[] = [];
  const passages: Passage[] = [];
  for (const [i, entry] of chat.documents.entries()) {
    const paths = await expandDocumentEntry(folder, entry);
    if (paths.length === 0) fail(i, `${entry} matches no file (relative to the workspace's folder)`);
    for (const path of paths) await addDocument(path, path === resolve(folder, entry) ? entry : relative(folder, path), i);
  }
  return { id: chat.id, name: chat.name || chat.id, kind: chat.kind, boardId, documents, passages };

  async function addDocument(path: string, name: string, i: number): Promise<void> {
    let markdown: string;
    try {
      markdown = await readDocument(path, root);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      fail(i, code ? `cannot read document ${path}: ${code}` : (error as Error).message);
    }
    const docName = relative(folder, path) || name;
    // Name and text, NUL-separated: a renamed document is a changed knowledge base too.
    documentsHash.update(`${chat.id}\u0000${docName}\u0000${markdown}\u0000`);
    const split = splitMarkdown(markdown, docName);
    documents.push({ name: docName, path, title: split.title });
    passages.push(...split.passages);
  }
}

/**
 * Reads and validates a workspace file; relative document paths are resolved against its folder, and
 * every document must lie inside the documents root (the folder, or `docs_root`).
 */
export async function loadWorkspace(workspacePath: string): Promise<Workspace> {
  const file = resolve(workspacePath);
  let text: string | null;
  try {
    text = await readBounded(file, MAX_WORKSPACE_BYTES);
  } catch (error) {
    throw new WorkspaceError(file, '', `cannot read workspace file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (text === null) throw new WorkspaceError(file, '', `the workspace file is larger than the limit of ${MAX_WORKSPACE_BYTES / 1024 / 1024} MiB`);
  const { spec, locate } = parseSpec(text, file);
  checkReferences(spec, file, locate);
  const folder = dirname(file);
  const root = await documentsRoot(spec, folder, file, locate);
  const boards: WorkspaceBoard[] = [];
  const documentsHash = createHash('sha256');
  for (const [i, board] of spec.boards.entries()) {
    const chats: WorkspaceChat[] = [];
    for (const [j, chat] of board.chats.entries()) {
      const fail = (k: number, reason: string): never => {
        const path = ['boards', i, 'chats', j, 'documents', k];
        throw new WorkspaceError(file, formatFieldPath(path), reason, locate(path));
      };
      chats.push(await loadChat(chat, board.id, folder, root, fail, documentsHash));
    }
    boards.push({ id: board.id, name: board.name, accountId: board.account, chats });
  }
  const accounts = spec.accounts.map((a) => ({ id: a.id, name: a.name, key: a.key, creditsUnits: creditsToUnits(a.credits) }));
  const defaultTarget = spec.default_target ? { boardId: spec.default_target.board_id, chatId: spec.default_target.chat_id } : undefined;
  const knowledgeBase = { ...(spec.version !== undefined ? { version: spec.version } : {}), sha256: documentsHash.digest('hex') };
  return { file, name: spec.name ?? file, accounts, boards, models: spec.models, ...(defaultTarget ? { defaultTarget } : {}), knowledgeBase };
}
