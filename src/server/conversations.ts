// In-memory conversation threads: their metadata and the saved turns later questions retrieve from.
import { randomUUID } from 'node:crypto';
import { CONVERSATION_DEFAULT_NAME_PREFIX, type Conversation } from '../protocol/index.js';
import type { Passage } from './markdown.js';

/** One saved exchange of a thread. */
export interface SavedTurn {
  prompt: string;
  answer: string;
  /** The passages the answer quoted, in the order shown, so "the second one" can be resolved. */
  quoted: Passage[];
  /** Terms of what the turn was about, inherited by a follow-up that says "it". */
  focus: string[];
  model: string;
  user?: string;
  source?: string;
}

export interface StoredConversation extends Conversation {
  accountId: string;
  turns: SavedTurn[];
}

/** Threads longer than this keep only their latest turns as context, so memory stays bounded. */
export const MAX_SAVED_TURNS = 50;

export class ConversationStore {
  private readonly byId = new Map<string, StoredConversation>();

  create(input: { accountId: string; boardId: string; chatId: string; name?: string }): StoredConversation {
    const createdAt = new Date().toISOString();
    const name = input.name !== undefined && input.name.trim() !== '' ? input.name : `${CONVERSATION_DEFAULT_NAME_PREFIX}${createdAt}`;
    const conversation: StoredConversation = {
      conversationId: randomUUID(),
      name,
      createdAt,
      boardId: input.boardId,
      chatId: input.chatId,
      accountId: input.accountId,
      turns: [],
    };
    this.byId.set(conversation.conversationId, conversation);
    return conversation;
  }

  get(conversationId: string): StoredConversation | undefined {
    return this.byId.get(conversationId);
  }

  saveTurn(conversation: StoredConversation, turn: SavedTurn): void {
    conversation.turns.push(turn);
    if (conversation.turns.length > MAX_SAVED_TURNS) conversation.turns.splice(0, conversation.turns.length - MAX_SAVED_TURNS);
  }

  /** Threads of one chat, oldest first. */
  listForChat(chatId: string): StoredConversation[] {
    return [...this.byId.values()].filter((conversation) => conversation.chatId === chatId);
  }

  /** The wire shape of a thread (no account, no turns). */
  static toWire(conversation: StoredConversation): Conversation {
    const { conversationId, name, createdAt, boardId, chatId } = conversation;
    return { conversationId, name, createdAt, boardId, chatId };
  }
}
