import { describe, expect, it } from 'vitest';
import { ConversationPacer, turnSendAtMs } from './pacing.js';
import type { DueRecord } from './schedule.js';

function due(index: number, dueMs: number, conversationKey: string | null): DueRecord {
  return { record: { line: index + 1, at: { seconds: dueMs / 1000 }, prompt: `q${index}`, checks: [] }, dueMs, pass: 1, index, conversationKey };
}

describe('turnSendAtMs', () => {
  it('is the due instant, or the previous answer when that came later', () => {
    expect(turnSendAtMs(1000, null)).toBe(1000);
    expect(turnSendAtMs(1000, 400)).toBe(1000);
    expect(turnSendAtMs(1000, 1300)).toBe(1300);
  });
});

describe('ConversationPacer', () => {
  it('sends a one-time question and a first turn at once', () => {
    const pacer = new ConversationPacer();
    expect(pacer.offer(due(0, 0, null), 3)).toMatchObject({ latenessMs: 3, conversationId: null });
    expect(pacer.offer(due(1, 10, 'c'), 10)).toMatchObject({ latenessMs: 0, conversationId: null });
  });

  it('never sends a turn before the previous answer: held, then sent late by its wait', () => {
    const pacer = new ConversationPacer();
    pacer.offer(due(0, 0, 'c'), 0);
    expect(pacer.offer(due(1, 500, 'c'), 500)).toBeNull();
    expect(pacer.offer(due(2, 600, 'c'), 600)).toBeNull();
    expect(pacer.held).toBe(2);
    expect(pacer.answered('c', 'conv-1', 800)).toMatchObject({ due: { index: 1 }, latenessMs: 300, conversationId: 'conv-1' });
    expect(pacer.answered('c', null, 900)).toMatchObject({ due: { index: 2 }, latenessMs: 300, conversationId: 'conv-1' });
    expect(pacer.answered('c', null, 950)).toBeNull();
    // Idle again: the next turn at its own instant goes on time, into the same conversation.
    expect(pacer.offer(due(3, 2000, 'c'), 2000)).toMatchObject({ latenessMs: 0, conversationId: 'conv-1' });
  });

  it('keeps conversations apart and drains what is held at the end', () => {
    const pacer = new ConversationPacer();
    pacer.offer(due(0, 0, 'a'), 0);
    pacer.offer(due(1, 0, 'b'), 0);
    pacer.offer(due(2, 5, 'a'), 5);
    expect(pacer.offer(due(3, 6, 'c'), 6)).not.toBeNull();
    expect(pacer.drain().map((d) => [d.due.index, d.turn])).toEqual([[2, 2]]);
    expect(pacer.held).toBe(0);
  });
});
