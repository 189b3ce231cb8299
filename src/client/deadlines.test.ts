import { describe, expect, it } from 'vitest';
import { DeadlineList, type DeadlineEntry } from './deadlines.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function entry(inMs: number, expired: string[], name: string, onExpire?: () => void): DeadlineEntry {
  return {
    deadlineAtMs: performance.now() + inMs, prev: null, next: null, list: null,
    expire: () => {
      expired.push(name);
      onExpire?.();
    },
  };
}

describe('DeadlineList', () => {
  it('expires entries in deadline order on one timer, never one that was removed', async () => {
    const list = new DeadlineList();
    const expired: string[] = [];
    const a = entry(5, expired, 'a');
    const b = entry(10, expired, 'b');
    const c = entry(15, expired, 'c');
    const d = entry(40, expired, 'd');
    for (const e of [a, b, c, d]) list.add(e);
    list.remove(b);
    await wait(25);
    expect(expired).toEqual(['a', 'c']);
    expect(list.armedAtMs).toBe(d.deadlineAtMs);
    list.remove(d);
    await wait(30);
    expect(expired).toEqual(['a', 'c']);
  });

  it('holds no timer once the list is empty (nothing keeps the process alive for a request that ended)', () => {
    const list = new DeadlineList();
    const e = entry(60_000, [], 'e');
    list.add(e);
    expect(list.armedAtMs).toBe(e.deadlineAtMs);
    list.remove(e);
    expect(list.armedAtMs).toBeNull();
    // Removing twice, or an entry of no list, changes nothing.
    list.remove(e);
    expect(e.list).toBeNull();
  });

  it('keeps the timer for the earliest deadline when an expiry adds one (a retry)', async () => {
    const list = new DeadlineList();
    const expired: string[] = [];
    const later = entry(20, expired, 'later');
    const retry = entry(200, expired, 'retry');
    const first = entry(5, expired, 'first', () => {
      retry.deadlineAtMs = performance.now() + 200;
      list.add(retry);
    });
    list.add(first);
    list.add(later);
    await wait(35);
    expect(expired).toEqual(['first', 'later']);
    expect(list.armedAtMs).toBe(retry.deadlineAtMs);
    list.remove(retry);
  });
});
