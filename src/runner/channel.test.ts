import { describe, expect, it } from 'vitest';
import { Channel } from './channel.js';

describe('Channel', () => {
  it('delivers a burst in order, pushed before and while it is read, then ends', async () => {
    const channel = new Channel<number>();
    for (let i = 0; i < 50_000; i += 1) channel.push(i);
    const seen: number[] = [];
    let next = 50_000;
    for await (const value of channel) {
      seen.push(value);
      if (next < 60_000) channel.push(next++);
      else channel.close();
    }
    expect(seen).toHaveLength(60_000);
    expect(seen.every((v, i) => v === i)).toBe(true);
  });

  it('hands a value to a waiting reader at once, and rethrows a producer failure after what was queued', async () => {
    const channel = new Channel<string>();
    const reader = (async () => {
      const got: string[] = [];
      for await (const value of channel) got.push(value);
      return got;
    })();
    await Promise.resolve();
    channel.push('a');
    channel.push('b');
    channel.close(new Error('boom'));
    await expect(reader).rejects.toThrow('boom');
  });

  it('wakes a waiting reader once per event-loop turn: what the turn pushed is read after it, as one batch', async () => {
    const channel = new Channel<number>();
    const seen: number[] = [];
    const reader = (async () => {
      for await (const value of channel) seen.push(value);
    })();
    await Promise.resolve();
    for (let i = 0; i < 5; i += 1) channel.push(i);
    // Microtasks of this turn (where a socket's bytes are read and stamped) see nothing booked yet.
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
    expect(seen).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    channel.close();
    await reader;
  });
});
