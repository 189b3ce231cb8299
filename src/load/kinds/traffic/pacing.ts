// Conversations at their own pace: a thread is created at its first turn's instant; each next turn
// is due at its recorded instant but never sent before the previous answer arrived. A turn held
// back by a slow answer goes as soon as that answer is in, its lateness recorded (corrected latency
// counts from the intended instant, as the open loop's does). Memory ∝ conversations seen.
import type { DueRecord } from './schedule.js';

/** When a turn is sent: at its due instant, or when the previous answer arrived if that is later. */
export function turnSendAtMs(dueMs: number, previousAnswerAtMs: number | null): number {
  return previousAnswerAtMs === null ? dueMs : Math.max(dueMs, previousAnswerAtMs);
}

/** A turn to send now: its due record and how late it goes (0 when on time). */
export interface PacedTurn {
  due: DueRecord;
  latenessMs: number;
  /** The conversation's id from its first answer (null: the first turn, which creates it). */
  conversationId: string | null;
  /** The turn's number in its conversation, in file order (null for a one-time question). */
  turn: number | null;
}

/** One entry per conversation seen: whether a turn is out, the turns held behind it, its id and turns offered. */
interface Conversation {
  busy: boolean;
  /** Held turns with their numbers; null while none is held (most conversations never hold one). */
  waiting: { due: DueRecord; turn: number }[] | null;
  conversationId: string | null;
  turns: number;
}

export class ConversationPacer {
  private readonly conversations = new Map<string, Conversation>();

  /** `known`: the service's id of a conversation begun before (a resumed replay's), whose next turn continues it. */
  constructor(private readonly known: (due: DueRecord) => string | null = () => null) {}

  /** A record whose instant has come: sent now, or held until its conversation's previous answer arrives. */
  offer(due: DueRecord & { turn?: number }, nowMs: number): PacedTurn | null {
    const key = due.conversationKey;
    if (key === null) return { due, latenessMs: Math.max(0, nowMs - due.dueMs), conversationId: null, turn: null };
    let conversation = this.conversations.get(key);
    if (conversation === undefined) {
      conversation = { busy: false, waiting: null, conversationId: this.known(due), turns: 0 };
      this.conversations.set(key, conversation);
    }
    // Turns count in file order, as records are offered (held or not); a resumed replay's records
    // bring their number in the whole log (resume.ts), the recorded turns counted.
    conversation.turns = due.turn ?? conversation.turns + 1;
    if (conversation.busy) {
      (conversation.waiting ??= []).push({ due, turn: conversation.turns });
      return null;
    }
    conversation.busy = true;
    return { due, latenessMs: Math.max(0, nowMs - due.dueMs), conversationId: conversation.conversationId, turn: conversation.turns };
  }

  /**
   * The previous turn of `key` has its answer (or failed: `conversationId` null after a failed
   * create): the next held turn, if any, goes now, late by now − its due instant.
   */
  answered(key: string, conversationId: string | null, nowMs: number): PacedTurn | null {
    const conversation = this.conversations.get(key);
    if (conversation === undefined) return null;
    if (conversationId !== null) conversation.conversationId = conversationId;
    const next = conversation.waiting?.shift();
    if (next === undefined) {
      conversation.busy = false;
      return null;
    }
    if (conversation.waiting!.length === 0) conversation.waiting = null;
    return { due: next.due, latenessMs: Math.max(0, nowMs - next.due.dueMs), conversationId: conversation.conversationId, turn: next.turn };
  }

  /** Turns held behind an answer (the run's in-flight accounting counts them as held). */
  get held(): number {
    let count = 0;
    for (const conversation of this.conversations.values()) count += conversation.waiting?.length ?? 0;
    return count;
  }

  /** Every held turn, taken out (the end of the run: each is recorded as dropped or interrupted, never lost). */
  drain(): PacedTurn[] {
    const all: PacedTurn[] = [];
    for (const conversation of this.conversations.values()) {
      for (const held of conversation.waiting ?? []) all.push({ due: held.due, latenessMs: 0, conversationId: conversation.conversationId, turn: held.turn });
      conversation.waiting = null;
    }
    return all;
  }
}
