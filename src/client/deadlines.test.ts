// The deadline list on a fake clock: which entries expire, in what order, on which timer.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../test-support/fake-clock.js';
import { DeadlineList, type DeadlineEntry } from './deadlines.js';

function entry(clock: FakeClock, inMs: number, expired: string[], name: string, onExpire?: () => void): DeadlineEntry {
  return {
    deadlineAtMs: clock.now() + inMs, prev: null, next: null, list: null,
    expire: () => {
      expired.push(name);
      onExpire?.();
    },
  };
}

describe('DeadlineList', () => {
  it('expires entries in deadline order on one timer, never one that was removed', async () => {
    const clock = new FakeClock();
    const list = new DeadlineList(clock);
    const expired: string[] = [];
    const a = entry(clock, 5, expired, 'a');
    const b = entry(clock, 10, expired, 'b');
    const c = entry(clock, 15, expired, 'c');
    const d = entry(clock, 40, expired, 'd');
    for (const e of [a, b, c, d]) list.add(e);
    expect(clock.pending).toBe(1);
    list.remove(b);
    await clock.advance(25);
    expect(expired).toEqual(['a', 'c']);
    expect(list.armedAtMs).toBe(d.deadlineAtMs);
    list.remove(d);
    expect(clock.pending).toBe(0);
    await clock.advance(30);
    expect(expired).toEqual(['a', 'c']);
  });

  it('holds no timer once the list is empty (nothing keeps the process alive for a request that ended)', () => {
    const clock = new FakeClock();
    const list = new DeadlineList(clock);
    const e = entry(clock, 60_000, [], 'e');
    list.add(e);
    expect(list.armedAtMs).toBe(e.deadlineAtMs);
    list.remove(e);
    expect(list.armedAtMs).toBeNull();
    expect(clock.pending).toBe(0);
    // Removing twice, or an entry of no list, changes nothing.
    list.remove(e);
    expect(e.list).toBeNull();
  });

  it('keeps the timer for the earliest deadline when an expiry adds one (a retry)', async () => {
    const clock = new FakeClock();
    const list = new DeadlineList(clock);
    const expired: string[] = [];
    const later = entry(clock, 20, expired, 'later');
    const retry = entry(clock, 200, expired, 'retry');
    const first = entry(clock, 5, expired, 'first', () => {
      retry.deadlineAtMs = clock.now() + 200;
      list.add(retry);
    });
    list.add(first);
    list.add(later);
    await clock.advance(35);
    expect(expired).toEqual(['first', 'later']);
    expect(list.armedAtMs).toBe(retry.deadlineAtMs);
    expect(retry.deadlineAtMs).toBe(1205);
    list.remove(retry);
  });

  it('a deadline between two milliseconds is waited to the next whole one, never cut short', async () => {
    const clock = new FakeClock();
    const list = new DeadlineList(clock);
    const expired: string[] = [];
    const e = entry(clock, 10.4, expired, 'e');
    list.add(e);
    await clock.advance(10.2);
    expect(expired).toEqual([]);
    await clock.advance(1);
    expect(expired).toEqual(['e']);
  });
});
