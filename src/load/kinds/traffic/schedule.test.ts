import { describe, expect, it } from 'vitest';
import { partOf, replaySchedule, scaleForRate } from './schedule.js';
import { collect, entriesOf } from './test-entries.js';

const log = entriesOf([[0, 'a'], [1], [2, 'a'], [4, 'b']]);
const read = () => log;

describe('replaySchedule', () => {
  it('replays at the recorded offsets, faster by the time scale', async () => {
    expect((await collect(replaySchedule(read, { timeScale: 1 }))).map((d) => d.dueMs)).toEqual([0, 1000, 2000, 4000]);
    expect((await collect(replaySchedule(read, { timeScale: 2 }))).map((d) => d.dueMs)).toEqual([0, 500, 1000, 2000]);
  });

  it('cuts at --duration and loops with a fresh conversation per pass', async () => {
    expect((await collect(replaySchedule(read, { timeScale: 1, durationMs: 2000 }))).length).toBe(2);
    const looped = await collect(replaySchedule(read, { timeScale: 1, durationMs: 11_000, loop: { spanMs: 4000 } }));
    // Pass 2 starts one mean gap (4 s / 3) after the last record.
    expect(looped.map((d) => [d.pass, Math.round(d.dueMs), d.conversationKey])).toEqual([
      [1, 0, 'a'], [1, 1000, null], [1, 2000, 'a'], [1, 4000, 'b'],
      [2, 5333, 'a#2'], [2, 6333, null], [2, 7333, 'a#2'], [2, 9333, 'b#2'],
      [3, 10_667, 'a#3'],
    ]);
    expect(looped.map((d) => d.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('splits by conversation: every turn of a thread in one part, the parts adding up to the whole', async () => {
    const many = entriesOf(Array.from({ length: 200 }, (_, i) => [i, i % 3 === 0 ? undefined : `c${i % 17}`] as const));
    const parts = await Promise.all([1, 2, 3].map((index) => collect(replaySchedule(() => many, { timeScale: 1, parts: [{ index, count: 3 }] }))));
    expect(parts.map((p) => p.length).reduce((a, b) => a + b)).toBe(200);
    const owner = new Map<string, number>();
    parts.forEach((part, p) => part.forEach((d) => {
      if (d.conversationKey === null) return;
      expect(owner.get(d.conversationKey) ?? p).toBe(p);
      owner.set(d.conversationKey, p);
    }));
    expect(partOf(many[1]!.record, 3)).toBe(partOf(many[35]!.record, 3)); // both c1
  });
});

describe('scaleForRate', () => {
  it('scales the mean rate to the asked one', () => {
    expect(scaleForRate(10, 2.5)).toBe(4);
    expect(() => scaleForRate(10, null)).toThrow(/one instant/);
  });
});
