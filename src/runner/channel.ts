// A push-to-pull bridge: producers push events as requests finish, one consumer iterates them.
// The consumer is woken once per event-loop turn (setImmediate), not per event: what the run does
// with a result (the recorder, redaction, the appender, stop conditions) runs after the poll phase
// in which the sockets were read and their bytes stamped, in one batch, so a burst of answers
// arriving together is timed before any of them is booked (issue 21).
import { setImmediate } from 'node:timers';

export class Channel<T> implements AsyncIterable<T> {
  /** A queue read from `head`: Array.shift() copies what is left, which made a burst quadratic. */
  private buffer: (T | undefined)[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;
  private failure: unknown = null;
  private wakeUp: NodeJS.Immediate | null = null;

  /** `onFailure` runs when a producer closes the channel with an error. */
  constructor(private readonly onFailure: () => void = () => undefined) {}

  push(value: T): void {
    if (this.closed) return;
    this.buffer.push(value);
    if (this.waiting) this.wakeUp ??= setImmediate(this.wake);
  }

  close(error?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.failure = error ?? null;
    if (error !== undefined) this.onFailure();
    if (this.waiting) this.wakeUp ??= setImmediate(this.wake);
  }

  /** The turn's batch: the waiting reader gets the first value (it takes the rest without waiting), or the end. */
  private readonly wake = (): void => {
    this.wakeUp = null;
    const resolve = this.waiting;
    if (!resolve) return;
    this.waiting = null;
    const value = this.take();
    resolve(value === undefined ? { value: undefined, done: true } : { value, done: false });
  };

  /** Called when the consumer stops iterating early (break, or an error in its loop body). */
  onAbandon: () => void = () => undefined;

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let finished = false;
    try {
      yield* this.drain();
      finished = true;
    } finally {
      if (!finished) this.onAbandon();
    }
  }

  private get size(): number {
    return this.buffer.length - this.head;
  }

  private take(): T | undefined {
    if (this.head === this.buffer.length) return undefined;
    const value = this.buffer[this.head];
    this.buffer[this.head] = undefined;
    this.head += 1;
    // Reclaim the consumed front once it is most of the array, so memory follows what is queued.
    if (this.head === this.buffer.length) {
      this.buffer = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.head);
      this.head = 0;
    }
    return value;
  }

  private async *drain(): AsyncGenerator<T> {
    for (;;) {
      const next = this.take();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure;
        return;
      }
      const result = await new Promise<IteratorResult<T>>((resolve) => (this.waiting = resolve));
      if (result.done) {
        if (this.failure) throw this.failure;
        return;
      }
      yield result.value;
    }
  }
}
