import { describe, expect, it } from 'vitest';
import { PauseFault } from './pause.js';

/** A clock moved by hand, whose waits end when it passes their time (or reject when their signal aborts). */
function fakeClock(startMs = 1000) {
  let t = startMs;
  const waits = new Set<{ atMs: number; resolve: () => void }>();
  return {
    now: () => t,
    sleep: (ms: number, signal?: AbortSignal): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason as Error);
        const wait = { atMs: t + ms, resolve };
        waits.add(wait);
        signal?.addEventListener('abort', () => {
          waits.delete(wait);
          reject(signal.reason as Error);
        }, { once: true });
      }),
    advance(ms: number): void {
      t += ms;
      for (const wait of waits) {
        if (wait.atMs > t) continue;
        waits.delete(wait);
        wait.resolve();
      }
    },
  };
}

/** Lets settled promises' callbacks run. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('PauseFault', () => {
  it('pauses for forMs at every multiple of everyMs after the start, never before the first period', () => {
    const clock = fakeClock();
    const pause = new PauseFault({ everyMs: 1000, forMs: 200 }, clock);
    const remaining: number[] = [];
    for (let t = 0; t <= 2400; t += 100) {
      remaining.push(pause.remainingMs());
      clock.advance(100);
    }
    // t = 0..900: running; 1000, 1100: paused; 1200..1900 running; 2000, 2100 paused; 2200.. running.
    expect(remaining).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200, 100, 0, 0, 0, 0, 0, 0, 0, 0, 200, 100, 0, 0, 0]);
  });

  it('is off without a schedule, or with a pause as long as its period', async () => {
    expect(new PauseFault({ everyMs: 100, forMs: 100 }).enabled).toBe(false);
    const pause = new PauseFault({ everyMs: 0, forMs: 0 });
    expect(pause.enabled).toBe(false);
    expect(pause.remainingMs()).toBe(0);
    await pause.wait();
  });

  it('holds a waiter until the pause ends, and lets a departing client go', async () => {
    // Pauses of 20 ms every 50 ms, on a clock moved by hand.
    const clock = fakeClock();
    const pause = new PauseFault({ everyMs: 50, forMs: 20 }, clock);
    await pause.wait(); // outside a pause: at once
    clock.advance(55);
    expect(pause.remainingMs()).toBe(15);
    let ended = false;
    const waiting = pause.wait().then(() => (ended = true));
    await settle();
    expect(ended).toBe(false);
    clock.advance(15);
    await waiting;
    expect(pause.remainingMs()).toBe(0);
    clock.advance(30); // the next pause
    const controller = new AbortController();
    const leaving = pause.wait(controller.signal);
    controller.abort(new Error('client left'));
    await expect(leaving).rejects.toThrow('client left');
  });
});
