import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseId, createIdOf, formatItemId, parseItemId, poolKeyOf, threadKey, turnId, type ItemId } from './item-id.js';

const text = fc.string({ unit: 'grapheme', maxLength: 24 });
const model = fc.string({ maxLength: 16 }).filter((m) => !m.includes('|'));
const placed = fc.record({ model, repeat: fc.integer({ min: 1, max: 100_000 }), cycle: fc.integer({ min: 1, max: 1000 }) });
const itemId: fc.Arbitrary<ItemId> = fc.oneof(
  fc.tuple(text, placed).map(([c, p]) => ({ kind: 'case' as const, case_id: c, ...p })),
  fc.tuple(text, fc.integer({ min: 1, max: 500 }), placed).map(([t, n, p]) => ({ kind: 'turn' as const, thread_id: t, turn: n, ...p })),
  fc.tuple(text, placed).map(([t, p]) => ({ kind: 'create' as const, thread_id: t, ...p })),
  // A thread key is never written alone; one whose id ends like a turn would read back as that turn.
  fc.tuple(text.filter((t) => !/\|turn:\d+$/.test(t)), placed).map(([t, p]) => ({ kind: 'thread' as const, thread_id: t, ...p })),
);

describe('item ids', () => {
  it('round-trip: parse(format(id)) is id, for any case or thread id', () => {
    fc.assert(fc.property(itemId, (id) => {
      expect(parseItemId(formatItemId(id))).toEqual(id);
    }), { numRuns: 2000 });
  });

  it('keep the strings results files have always had', () => {
    expect(formatItemId(caseId('refund-window', 'gpt-4o', 2))).toBe('case:refund-window|model:gpt-4o|r2');
    expect(formatItemId(turnId('onboarding', 3, 'default', 1))).toBe('thread:onboarding|turn:3|model:default|r1');
    expect(formatItemId(createIdOf(threadKey('onboarding', 'm', 1, 4)))).toBe('thread:onboarding|model:m|r1|c4|create');
    expect(formatItemId(caseId('a', 'm', 1, 2))).toBe('case:a|model:m|r1|c2');
  });

  it('parse ids with separators inside case ids, and refuse what is not an id', () => {
    expect(parseItemId('case:a|model:x|model:m|r3')).toEqual(caseId('a|model:x', 'm', 3));
    for (const bad of ['', 'case:a', 'case:a|model:m|r0', 'case:a|model:m|r1|c1', 'x:a|model:m|r1', 'case:a|model:m|r1|create']) {
      expect(parseItemId(bad)).toBeNull();
    }
  });

  it('pool repeats and open-loop passes of one question on one model', () => {
    expect(poolKeyOf('case:a|model:m|r2|c3')).toBe('case:a|model:m');
    expect(poolKeyOf('case:a|model:m|r1')).toBe('case:a|model:m');
    expect(poolKeyOf('thread:t|turn:2|model:m|r5|c2')).toBe('thread:t|turn:2|model:m');
    expect(poolKeyOf('thread:t|model:m|r2|c9|create')).toBe('thread:t|model:m|create');
    expect(poolKeyOf('not an id')).toBe('not an id');
  });
});
