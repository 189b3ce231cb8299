import { describe, expect, it } from 'vitest';
import { sampleWith } from '../../../test-support/fixtures.js';
import { ConversationPacer } from './pacing.js';
import { knownConversation, pendingRecords, resumeClockMs, trafficResumeOf, type ResumeProgress } from './resume.js';
import { replaySchedule } from './schedule.js';
import { collect, entriesOf } from './test-entries.js';

// Lines 1..6: a (turns 1, 2), a one-time question, b (turn 1), a (turn 3), a one-time question.
const log = entriesOf([[0, 'a'], [1, 'a'], [2], [3, 'b'], [5, 'a'], [8]]);
const lines = (...items: [string, (string | null)?][]) => (async function* () {
  for (const [item_id, conversation_id] of items) yield sampleWith({ item_id, conversation_id: conversation_id ?? null });
})();

describe('trafficResumeOf', () => {
  it('counts each conversation\'s recorded turns (a create line is one) and keeps its last conversation id', async () => {
    const done = await trafficResumeOf(lines(
      ['thread:a|turn:1|model:default|r1', 'conv-a'], ['case:line-3|model:default|r1'], ['thread:b|model:default|r1|create'],
      ['thread:a|turn:2|model:default|r1', 'conv-a'], ['case:line-3|model:default|r1|c2'], ['not an id'],
    ));
    expect([...done.cases]).toEqual(['1 line-3', '2 line-3']);
    expect(Object.fromEntries(done.conversations)).toEqual({ '1 a': { turns: 2, conversationId: 'conv-a' }, '1 b': { turns: 1, conversationId: null } });
  });

  it('counts a dropped record (named in the timeline) as done: its drop is its outcome, it is never sent later', async () => {
    const done = await trafficResumeOf(lines(['thread:a|turn:1|model:default|r1', 'conv-a']), ['thread:a|turn:2|model:default|r1', 'case:line-3|model:default|r1', 'not an id']);
    expect([...done.cases]).toEqual(['1 line-3']);
    expect(done.conversations.get('1 a')).toEqual({ turns: 2, conversationId: 'conv-a' });
    const pending = await collect(pendingRecords(replaySchedule(() => log, { timeScale: 1 }), () => Promise.resolve(done), { done: null }));
    // a's turns 1 (a line) and 2 (dropped) and the question at line 3 (dropped) are done; a's turn 3 goes on as turn 3.
    expect(pending.map((d) => [d.record.line, d.turn ?? null])).toEqual([[4, 1], [5, 3], [6, null]]);
  });

  it('starts a resume with nothing left at 0', async () => {
    expect(await resumeClockMs((async function* () {})())).toBe(0);
  });
});

describe('pendingRecords', () => {
  it('skips what has a line, numbers the rest as in the whole log, each at its own instant; the clock starts at the whole second before the first', async () => {
    const progress: ResumeProgress = { done: null };
    const read = () => trafficResumeOf(lines(['thread:a|turn:1|model:default|r1', 'conv-a'], ['thread:a|turn:2|model:x|r1', 'conv-a'], ['case:line-6|model:default|r1']));
    const pending = await collect(pendingRecords(replaySchedule(() => log, { timeScale: 1 }), read, progress));
    expect(pending.map((d) => [d.record.line, d.dueMs, d.turn ?? null])).toEqual([[3, 2000, null], [4, 3000, 1], [5, 5000, 3]]);
    expect(await resumeClockMs(pendingRecords(replaySchedule(() => log, { timeScale: 1 }), read, { done: null }))).toBe(2000);
    expect(knownConversation(progress.done!, pending[2]!)).toBe('conv-a');
    expect(knownConversation(progress.done!, pending[1]!)).toBeNull();
  });

  it('keeps the recorded cut and passes: --duration on the log\'s clock, --loop\'s later passes by their own ids', async () => {
    const progress: ResumeProgress = { done: null };
    // Pass 1 all recorded (a's three turns, b's, both questions); pass 2 recorded up to its question at line 3.
    const read = () => trafficResumeOf(lines(
      ['thread:a|turn:1|model:m|r1'], ['thread:a|turn:2|model:m|r1'], ['thread:a|turn:3|model:m|r1'], ['thread:b|turn:1|model:m|r1'],
      ['case:line-3|model:m|r1'], ['case:line-6|model:m|r1'], ['thread:a|turn:1|model:m|r1|c2', 'conv-a2'], ['thread:a|turn:2|model:m|r1|c2', 'conv-a2'], ['case:line-3|model:m|r1|c2'],
    ));
    const schedule = replaySchedule(() => log, { timeScale: 1, durationMs: 13_000, loop: { spanMs: 8000 } });
    const pending = await collect(pendingRecords(schedule, read, progress));
    // Pass 2 begins at 9.6 s (8 s and a mean gap of 1.6 s): b at 12.6 s is its first record not recorded; the cut at 13 s leaves a's third turn out.
    expect(pending.map((d) => [d.pass, d.record.line, Math.round(d.dueMs)])).toEqual([[2, 4, 12_600]]);
    expect(await resumeClockMs((async function* () { yield* pending; })())).toBe(12_000);
  });
});

describe('a resumed conversation', () => {
  it('continues in the conversation its recorded turns used', () => {
    const pacer = new ConversationPacer((due) => (due.conversationKey === 'a' ? 'conv-a' : null));
    const due = { record: log[4]!.record, dueMs: 0, pass: 1, index: 4, conversationKey: 'a' };
    expect(pacer.offer(due, 0)?.conversationId).toBe('conv-a');
    expect(pacer.offer({ ...due, record: log[3]!.record, conversationKey: 'b' }, 0)?.conversationId).toBeNull();
  });
});
