// The port the runner depends on: a small client interface, not undici. client/ implements it.
import type { Board, ChatList, Conversation } from '../protocol/index.js';
import type { AnswerResult } from './answer.js';
import type { HttpMethod } from './sample.js';

export interface AskRequest {
  boardId: string;
  chatId: string;
  prompt: string;
  model?: string;
  method?: HttpMethod;
  plaintext?: boolean;
  streaming?: boolean;
  includeUsage?: boolean;
  additionalContext?: string;
  signal?: AbortSignal;
  /** Whole-request limit; phases are told apart in TimeoutError.phase. */
  timeoutMs?: number;
}

export interface ContinueRequest extends AskRequest {
  conversationId: string;
  saveHistory?: boolean;
  user?: string;
  source?: string;
}

export interface CreateConversationRequest {
  boardId: string;
  chatId: string;
  name?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ChatClient {
  ask(request: AskRequest): Promise<AnswerResult>;
  continueConversation(request: ContinueRequest): Promise<AnswerResult>;
  createConversation(request: CreateConversationRequest): Promise<Conversation>;
  listBoards(signal?: AbortSignal, timeoutMs?: number): Promise<Board[]>;
  listChats(boardId: string, signal?: AbortSignal, timeoutMs?: number): Promise<ChatList['data']>;
  close(): Promise<void>;
}
