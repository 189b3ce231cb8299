// A push-to-pull bridge: producers push events as requests finish, one consumer iterates them.
// The consumer is woken once per event-loop turn (setImmediate), not per event: what the run does
// with a result (the recorder, redaction, the appender, stop conditions) runs after the poll phase
// in which the sockets were read and their bytes stamped, in one batch, so a burst of answers
// arriving together is timed before any of them is booked (issue 21).
import { setImmediate } from 'node:timers';

/** What a run's events are read as: one at a time (a library user), or a turn's batch at once (the session). */
export interface EventStream<T> extends AsyncIterable<T> {
  /**
   * The values of each event-loop turn as one array: a consumer that books every result (the
   * session) takes a turn's results with one await, not an async-iterator step per value (three
   * per request: its start, its sample, its settling), which showed in a load test's profile.
   */
  batches(): AsyncIterable<T[]>;
}

export class Channel<T> implements EventStream<T> {
  /** What was pushed since the reader last took the queue (it takes it whole). */
  private buffer: T[] = [];
  /** The reader waiting for the next turn's values (or the end). */
  private waiting: (() => void) | null = null;
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

  /** The turn is over: the waiting reader takes what it pushed (or the end). */
  private readonly wake = (): void => {
    this.wakeUp = null;
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.();
  };

  /** Called when the consumer stops iterating early (break, or an error in its loop body). */
  onAbandon: () => void = () => undefined;

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let finished = false;
    try {
      for await (const batch of this.drain()) yield* batch;
      finished = true;
    } finally {
      if (!finished) this.onAbandon();
    }
  }

  async *batches(): AsyncGenerator<T[]> {
    let finished = false;
    try {
      yield* this.drain();
      finished = true;
    } finally {
      if (!finished) this.onAbandon();
    }
  }

  /** The queue, taken whole each time there is something in it, in order; then the end or the failure. */
  private async *drain(): AsyncGenerator<T[]> {
    for (;;) {
      if (this.buffer.length > 0) {
        const batch = this.buffer;
        this.buffer = [];
        yield batch;
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}
