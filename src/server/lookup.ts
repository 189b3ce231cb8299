// Finding an account's boards and chats: a board of another account is as unknown as one that does not exist.
import { notFound } from './http-responses.js';
import type { ServiceContext, ServiceResponse } from './service-types.js';
import type { WorkspaceAccount, WorkspaceBoard, WorkspaceChat } from './workspace.js';

export type Found<T> = { ok: true; value: T } | { ok: false; response: ServiceResponse };

export function boardsOf(ctx: ServiceContext, account: WorkspaceAccount): WorkspaceBoard[] {
  return ctx.workspace.boards.filter((board) => board.accountId === account.id);
}

export function findBoard(ctx: ServiceContext, account: WorkspaceAccount, boardId: string): Found<WorkspaceBoard> {
  const board = boardsOf(ctx, account).find((candidate) => candidate.id === boardId);
  return board ? { ok: true, value: board } : { ok: false, response: notFound(`Board ${boardId} not found.`) };
}

export function findChat(
  ctx: ServiceContext,
  account: WorkspaceAccount,
  boardId: string,
  chatId: string,
): Found<{ board: WorkspaceBoard; chat: WorkspaceChat }> {
  const board = findBoard(ctx, account, boardId);
  if (!board.ok) return board;
  const chat = board.value.chats.find((candidate) => candidate.id === chatId);
  return chat
    ? { ok: true, value: { board: board.value, chat } }
    : { ok: false, response: notFound(`Chat ${chatId} not found on board ${boardId}.`) };
}
