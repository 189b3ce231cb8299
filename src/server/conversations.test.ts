// Unit tests: the conversation store stays bounded, forgets idle threads first and lists in creation order.
import { describe, expect, it } from 'vitest';
import { ConversationStore, DEFAULT_STORE_LIMITS, MAX_SAVED_TURNS, type SavedTurn } from './conversations.js';

const thread = { accountId: 'a', boardId: 'b', chatId: 'c' };
const turn = (prompt: string, answer = 'an answer'): SavedTurn => ({ prompt, answer, quoted: [], focus: [], model: 'gpt-4o' });

describe('ConversationStore memory', () => {
  it('stays bounded however many threads a soak test opens, forgetting the least recently used', () => {
    const store = new ConversationStore();
    const first = store.create(thread);
    const busy = store.create(thread);
    for (let i = 0; i < DEFAULT_STORE_LIMITS.maxConversations + 5_000; i++) {
      store.create(thread);
      // A thread in use is never the one forgotten.
      if (i % 1_000 === 0) expect(store.get(busy.conversationId)).toBe(busy);
    }
    expect(store.size).toBe(DEFAULT_STORE_LIMITS.maxConversations);
    expect(store.get(first.conversationId)).toBeUndefined();
    expect(store.get(busy.conversationId)).toBe(busy);
  });

  it('forgets idle threads once the saved turns pass the character budget, and keeps the one in use', () => {
    const store = new ConversationStore({ maxConversations: 100, maxStoredChars: 1_000 });
    const idle = store.create(thread);
    store.saveTurn(idle, turn('p'.repeat(400)));
    const active = store.create(thread);
    store.saveTurn(active, turn('q'.repeat(400)));
    store.saveTurn(active, turn('r'.repeat(400)));
    expect(store.get(idle.conversationId)).toBeUndefined();
    expect(store.get(active.conversationId)?.turns).toHaveLength(2);
    // One thread alone over the budget is still kept: it is the one being talked to.
    store.saveTurn(active, turn('s'.repeat(5_000)));
    expect(store.get(active.conversationId)?.turns).toHaveLength(3);
  });

  it('keeps the latest turns of a long thread and counts only what it keeps', () => {
    const store = new ConversationStore({ maxConversations: 10, maxStoredChars: 10_000 });
    const long = store.create(thread);
    for (let i = 0; i < MAX_SAVED_TURNS + 30; i++) store.saveTurn(long, turn(`t${String(i).padStart(3, '0')}`, 'a'.repeat(96)));
    expect(long.turns).toHaveLength(MAX_SAVED_TURNS);
    expect(long.turns[0]?.prompt).toBe('t030');
    expect(long.storedChars).toBe(MAX_SAVED_TURNS * 100 + long.name.length);
    // Under the budget (5 000 of 10 000), so a second thread with as much does not push it out.
    const other = store.create(thread);
    store.saveTurn(other, turn('x'.repeat(4_000)));
    expect(store.get(long.conversationId)).toBe(long);
  });

  it('lists a chat’s threads oldest first, whatever was used last', () => {
    const store = new ConversationStore();
    const [a, b, c] = [store.create(thread), store.create(thread), store.create({ ...thread, chatId: 'other' })];
    store.get(a.conversationId);
    expect(store.listForChat('c').map((x) => x.conversationId)).toEqual([a.conversationId, b.conversationId]);
    expect(store.listForChat('other')).toEqual([c]);
  });

  it('counts names against the character budget too: threads with long names are forgotten, oldest first (finding 5)', () => {
    const store = new ConversationStore({ maxConversations: 1_000, maxStoredChars: 10_000 });
    const made = Array.from({ length: 30 }, () => store.create({ ...thread, name: 'n'.repeat(1_000) }));
    expect(store.size).toBe(10);
    expect(store.get(made[0]!.conversationId)).toBeUndefined();
    expect(store.get(made[29]!.conversationId)?.name).toHaveLength(1_000);
  });
});

