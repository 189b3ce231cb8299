// The bounded queue behind every network output: second() pushes a batch and returns; one batch at
// a time is sent in the background; a full queue drops its oldest batch (counters are cumulative,
// so the next batch carries the totals anyway). Nothing here ever throws into the caller, and the
// run waits on it only in stop(), which ends at its deadline whatever the endpoint does.
import type { OutputKind, OutputReport } from '../domain/output.js';

export interface BatchQueueOptions<B> {
  kind: OutputKind;
  /** The endpoint as reported (no user or password). */
  url: string;
  /** Sends one batch; throws (or rejects) when the endpoint did not accept it. */
  send(batch: B, signal: AbortSignal): Promise<void>;
  /** Samples (data points) in a batch, for the report. */
  samplesOf(batch: B): number;
  /** Batches waiting at most (64 by default: a minute of seconds behind). */
  maxBatches?: number;
  /** One request's time limit (5 s by default): a black hole costs a batch, not the run. */
  timeoutMs?: number;
}

export class BatchQueue<B> {
  private readonly queue: B[] = [];
  private sending: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  private readonly report: OutputReport;

  constructor(private readonly options: BatchQueueOptions<B>) {
    this.report = { kind: options.kind, url: options.url, sent_batches: 0, sent_samples: 0, dropped_batches: 0, errors: 0, first_error: null };
  }

  /** Enqueues; never throws, never waits. */
  push(batch: B): void {
    if (this.stopping.signal.aborted) {
      this.report.dropped_batches += 1;
      return;
    }
    if (this.queue.length >= (this.options.maxBatches ?? 64)) {
      this.queue.shift();
      this.report.dropped_batches += 1;
    }
    this.queue.push(batch);
    this.sending ??= this.pump().finally(() => {
      this.sending = null;
    });
  }

  /** Sends what is queued until `deadlineMs` has passed, then gives up the rest (counted dropped). */
  async stop(deadlineMs: number): Promise<OutputReport> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadlineMs));
    });
    while (this.sending !== null && !this.stopping.signal.aborted) {
      const done = await Promise.race([this.sending.then(() => true), deadline.then(() => false)]);
      if (!done) break;
    }
    clearTimeout(timer);
    // Past the deadline: the batch in flight is cancelled, and it and the queued ones are dropped.
    this.stopping.abort();
    this.report.dropped_batches += this.queue.length;
    this.queue.length = 0;
    await this.sending;
    return { ...this.report };
  }

  private async pump(): Promise<void> {
    for (let batch = this.queue.shift(); batch !== undefined; batch = this.queue.shift()) {
      if (this.stopping.signal.aborted) {
        this.report.dropped_batches += 1;
        continue;
      }
      const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.options.timeoutMs ?? 5000)]);
      try {
        await this.options.send(batch, signal);
        this.report.sent_batches += 1;
        this.report.sent_samples += this.options.samplesOf(batch);
      } catch (error) {
        this.report.dropped_batches += 1;
        // Cut by stop()'s deadline: dropped, not an endpoint's error.
        if (this.stopping.signal.aborted) continue;
        this.report.errors += 1;
        this.report.first_error ??= wordsOf(error);
      }
    }
  }
}

function wordsOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`.slice(0, 300);
}

/** The endpoint as a report or a message may show it: no user, no password, no query. */
export function displayUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  return shown.href;
}
