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
  /** Creation order, for listings: recency of use reorders the store itself. */
  createdSeq: number;
  /** Characters it holds (its name, its turns' prompts, answers, quoted context), counted against the store's budget. */
  storedChars: number;
}

/** Threads longer than this keep only their latest turns as context, so memory stays bounded. */
export const MAX_SAVED_TURNS = 50;

/**
 * How much the store keeps before it forgets the least recently used threads. A soak test that
 * opens threads for hours must not grow the service without end; an idle thread is the one to lose.
 */
export interface StoreLimits {
  maxConversations: number;
  maxStoredChars: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = { maxConversations: 50_000, maxStoredChars: 64 * 1024 * 1024 };

/** What a turn adds to memory: document passages are shared with the index, context passages are not. */
function turnChars(turn: SavedTurn): number {
  const context = turn.quoted.reduce((sum, passage) => sum + (passage.source === 'document' ? 0 : passage.text.length), 0);
  return turn.prompt.length + turn.answer.length + context;
}

export class ConversationStore {
  /** Least recently used first: a Map keeps insertion order, and a use re-inserts. */
  private readonly byId = new Map<string, StoredConversation>();
  private storedChars = 0;
  private nextSeq = 0;

  constructor(private readonly limits: StoreLimits = DEFAULT_STORE_LIMITS) {}

  get size(): number {
    return this.byId.size;
  }

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
      createdSeq: this.nextSeq++,
      storedChars: name.length,
    };
    this.byId.set(conversation.conversationId, conversation);
    this.storedChars += conversation.storedChars;
    this.evict(conversation);
    return conversation;
  }

  /** The thread, marked as just used; undefined when unknown or forgotten. */
  get(conversationId: string): StoredConversation | undefined {
    const conversation = this.byId.get(conversationId);
    if (conversation) this.touch(conversation);
    return conversation;
  }

  saveTurn(conversation: StoredConversation, turn: SavedTurn): void {
    conversation.turns.push(turn);
    let added = turnChars(turn);
    if (conversation.turns.length > MAX_SAVED_TURNS) {
      const dropped = conversation.turns.splice(0, conversation.turns.length - MAX_SAVED_TURNS);
      added -= dropped.reduce((sum, old) => sum + turnChars(old), 0);
    }
    conversation.storedChars += added;
    if (this.byId.get(conversation.conversationId) !== conversation) return;
    this.storedChars += added;
    this.touch(conversation);
    this.evict(conversation);
  }

  /** Threads of one chat, oldest first. */
  listForChat(chatId: string): StoredConversation[] {
    return [...this.byId.values()].filter((conversation) => conversation.chatId === chatId).sort((a, b) => a.createdSeq - b.createdSeq);
  }

  /** The wire shape of a thread (no account, no turns). */
  static toWire(conversation: StoredConversation): Conversation {
    const { conversationId, name, createdAt, boardId, chatId } = conversation;
    return { conversationId, name, createdAt, boardId, chatId };
  }

  private touch(conversation: StoredConversation): void {
    this.byId.delete(conversation.conversationId);
    this.byId.set(conversation.conversationId, conversation);
  }

  /** Forgets least recently used threads until within limits; never `keep`, the one in use. */
  private evict(keep: StoredConversation): void {
    const over = (): boolean => this.byId.size > this.limits.maxConversations || this.storedChars > this.limits.maxStoredChars;
    for (const oldest of this.byId.values()) {
      if (!over()) return;
      if (oldest === keep) continue;
      this.byId.delete(oldest.conversationId);
      this.storedChars -= oldest.storedChars;
    }
  }
}
