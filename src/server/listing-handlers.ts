// List boards (4.6), list chats (public-facts.md) and create a conversation (4.5).
import { ConversationStore } from './conversations.js';
import { json, validationFailed } from './http-responses.js';
import { boardsOf, findBoard, findChat } from './lookup.js';
import { parseCreateParams, queryInput } from './params.js';
import type { ServiceContext, ServiceResponse } from './service-types.js';
import type { WorkspaceAccount } from './workspace.js';

export function listBoards(ctx: ServiceContext, account: WorkspaceAccount): ServiceResponse {
  return json(200, { data: boardsOf(ctx, account).map((board) => ({ id: board.id, name: board.name })) });
}

export function listChats(ctx: ServiceContext, account: WorkspaceAccount, query: URLSearchParams): ServiceResponse {
  const boardId = query.get('board_id') ?? query.get('boardId');
  if (boardId === null || boardId.trim() === '') return validationFailed({ board_id: 'is required' });
  const board = findBoard(ctx, account, boardId);
  if (!board.ok) return board.response;
  const data = board.value.chats.map((chat) => ({
    id: chat.id,
    name: chat.name,
    conversations: ctx.conversations.listForChat(chat.id).map((c) => ({ id: c.conversationId, name: c.name })),
  }));
  return json(200, { data });
}

export function createConversation(
  ctx: ServiceContext,
  account: WorkspaceAccount,
  query: URLSearchParams,
  body: Record<string, unknown>,
): ServiceResponse {
  const params = parseCreateParams({ ...queryInput(query), ...body });
  if (!params.ok) return validationFailed(params.details);
  const found = findChat(ctx, account, params.value.boardId, params.value.chatId);
  if (!found.ok) return found.response;
  const conversation = ctx.conversations.create({
    accountId: account.id,
    boardId: params.value.boardId,
    chatId: params.value.chatId,
    name: params.value.name,
  });
  return json(200, ConversationStore.toWire(conversation));
}
