// Shared fixtures of the reference service's tests: the demo IDs, an in-process app, temporary workspaces.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createReferenceApp, type ReferenceApp } from './app.js';
import { resolveServiceOptions, type ServiceOptions } from './options.js';
import type { ServiceRequest, ServiceResponse } from './service-types.js';
import { loadWorkspace, type Workspace } from './workspace.js';

export const DEMO = {
  key: 'kb-demo-0000-local',
  boardId: 'winter-frost-CJk4G',
  chatId: 'chatNode-patient-star-4uIJt',
  billingChatId: 'chatNode-quiet-ledger-9KpRw',
  judgeChatId: 'chatNode-fair-judge-7Qx2L',
  otherKey: 'kb-other-0000-local',
  otherBoardId: 'summer-dawn-Xb7Qe',
  otherChatId: 'chatNode-brave-otter-2mNcZ',
} as const;

let demoWorkspace: Promise<Workspace> | undefined;

export function loadDemoWorkspace(): Promise<Workspace> {
  demoWorkspace ??= loadWorkspace(resolveServiceOptions().workspacePath);
  return demoWorkspace;
}

/** A fresh app (own credits and threads) over the demo workspace, answering at once unless told otherwise. */
export async function demoApp(options: ServiceOptions = {}): Promise<ReferenceApp> {
  const workspace = await loadDemoWorkspace();
  // Accounts are copied so one test's debits never leak into another's balances.
  const copy = { ...workspace, accounts: workspace.accounts.map((account) => ({ ...account })) };
  return createReferenceApp(copy, resolveServiceOptions({ latencyScale: 0, ...options }));
}

/** The whole body of an in-process response, streamed or not. */
export async function bodyText(response: ServiceResponse): Promise<string> {
  if (!response.stream) return response.body ?? '';
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

export function bodyJson<T = Record<string, unknown>>(response: ServiceResponse): T {
  return JSON.parse(response.body ?? 'null') as T;
}

/** An in-process request with the demo key in the x-api-key header unless headers say otherwise. */
export function request(method: string, url: string, init: { body?: unknown; headers?: Record<string, string> } = {}): ServiceRequest {
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  return { method, url, headers: { 'x-api-key': DEMO.key, ...init.headers }, body };
}

export function askUrl(params: Record<string, string> = {}, path = '/api/conversation'): string {
  const query = new URLSearchParams({ board_id: DEMO.boardId, chat_id: DEMO.chatId, ...params });
  return `${path}?${query.toString()}`;
}

/** Writes files (paths relative to a new temporary folder) and returns the folder. */
export async function writeTempFiles(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'kbbench-server-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(folder, name)), { recursive: true });
    await writeFile(join(folder, name), content, 'utf8');
  }
  return folder;
}

/** The `data:` payloads of an SSE body, comments and blank lines dropped. */
export function sseData(body: string): string[] {
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
}
