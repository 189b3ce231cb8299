// A grader that is a chat assistant of the service: asked like any chat, in plaintext JSON answers.
import type { KbClient } from '../client/index.js';
import { InputError } from '../domain/errors.js';
import type { GraderSpec } from '../domain/suite.js';
import type { Grader } from './types.js';

export interface ChatGraderDeps {
  client: KbClient;
  /** The run's board, for a grader that names none. */
  boardId: string;
  timeoutMs: number;
}

export function chatGraderLabel(chatId: string, model: string | undefined): string {
  return `chat ${chatId} (${model ?? 'service default model'})`;
}

export function chatGrader(spec: Extract<GraderSpec, { kind: 'chat' }>, deps: ChatGraderDeps): Grader {
  const boardId = spec.board_id ?? deps.boardId;
  return {
    kind: 'chat',
    label: chatGraderLabel(spec.chat_id, spec.model),
    model: spec.model ?? null,
    withModel: (model) => chatGrader({ ...spec, model }, deps),
    ask: async (prompt, signal) => {
      const answer = await deps.client.ask({
        boardId, chatId: spec.chat_id, prompt, ...(spec.model ? { model: spec.model } : {}), streaming: false, plaintext: true, signal, timeoutMs: deps.timeoutMs,
      });
      return { text: answer.text, credits_used: answer.creditsUsed, tokens: null };
    },
    preflight: async (signal) => {
      const chats = await deps.client.listChats(boardId, signal, 15_000);
      if (!chats.some((chat) => chat.id === spec.chat_id)) {
        const known = chats.map((chat) => chat.id).join(', ') || 'none';
        throw new InputError(`grader chat ${spec.chat_id} is not a chat of board ${boardId} (its chats: ${known})`, { ...(spec.location ?? {}), field: 'grader.chat_id' });
      }
    },
  };
}
