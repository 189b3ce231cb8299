// A Clock for unit tests (tinybench's injectable `now` and timers): time moves only when the test
// says, or when everything else has settled, so a 2-second open loop or a 60-s retry wait takes none.
import { setImmediate } from 'node:timers';
import type { Clock, ClockTimer } from '../runner/clock.js';

interface PendingTimer {
  id: number;
  atMs: number;
  callback: () => void;
}

/** Event-loop turns given to promises, streams and setImmediate (the run's channel) before time moves. */
const SETTLE_TURNS = 4;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class FakeClock implements Clock {
  private nowMs: number;
  private nextId = 1;
  private timers: PendingTimer[] = [];
  /** Every wait asked through sleep, in order (a test reads the think times or backoff drawn). */
  readonly slept: number[] = [];

  constructor(startMs = 1000) {
    this.nowMs = startMs;
  }

  now = (): number => this.nowMs;

  setTimer = (callback: () => void, ms: number): ClockTimer => {
    const id = this.nextId++;
    this.timers.push({ id, atMs: this.nowMs + Math.max(0, ms), callback });
    return id;
  };

  clearTimer = (timer: ClockTimer | undefined): void => {
    this.timers = this.timers.filter((t) => t.id !== timer);
  };

  sleep = (ms: number, signal?: AbortSignal): Promise<boolean> => {
    this.slept.push(ms);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.clearTimer(id);
        resolve(false);
      };
      const id = this.setTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };

  /** Timers still to run. */
  get pending(): number {
    return this.timers.length;
  }

  /** Lets promise chains and setImmediate callbacks run; time stands still. */
  async settle(): Promise<void> {
    for (let i = 0; i < SETTLE_TURNS; i += 1) await turn();
  }

  /** Moves time `ms` on, running each timer due on the way at its own time (then what it set off). */
  async advance(ms: number): Promise<void> {
    const endMs = this.nowMs + ms;
    await this.settle();
    for (let next = this.earliest(); next !== undefined && next.atMs <= endMs; next = this.earliest()) {
      this.fire(next);
      await this.settle();
    }
    this.nowMs = endMs;
  }

  /**
   * Runs `work` to its end, moving time to the next timer whenever nothing else is left to do.
   * Throws when `work` waits on nothing this clock owns (a real timer or socket would hang it).
   */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const settled = work.finally(() => {
      done = true;
    });
    settled.catch(() => undefined);
    for (;;) {
      await this.settle();
      if (done) return settled;
      const next = this.earliest();
      if (next === undefined) {
        await turn();
        if (done) return settled;
        throw new Error('FakeClock.run: the work waits on nothing this clock will run');
      }
      this.fire(next);
    }
  }

  private earliest(): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.timers) if (best === undefined || t.atMs < best.atMs || (t.atMs === best.atMs && t.id < best.id)) best = t;
    return best;
  }

  private fire(timer: PendingTimer): void {
    this.timers = this.timers.filter((t) => t !== timer);
    this.nowMs = Math.max(this.nowMs, timer.atMs);
    timer.callback();
  }
}
