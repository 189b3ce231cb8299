import { describe, expect, it } from 'vitest';
import { PauseFault } from './pause.js';

function fakeClock(startMs = 1000): { now: () => number; advance(ms: number): void } {
  let t = startMs;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('PauseFault', () => {
  it('pauses for forMs at every multiple of everyMs after the start, never before the first period', () => {
    const clock = fakeClock();
    const pause = new PauseFault({ everyMs: 1000, forMs: 200 }, clock.now);
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
    // A real clock with a short period: pauses of 20 ms every 50 ms.
    const pause = new PauseFault({ everyMs: 50, forMs: 20 });
    while (pause.remainingMs() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await pause.wait();
    expect(pause.remainingMs()).toBe(0);
    while (pause.remainingMs() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const controller = new AbortController();
    const waiting = pause.wait(controller.signal);
    controller.abort(new Error('client left'));
    await expect(waiting).rejects.toThrow('client left');
  });
});
