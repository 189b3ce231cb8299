// The run's one stream of events pumped to its sinks, in order: each event, as recorded, reaches
// every sink in the list's order before the next event reaches any; only a promise is awaited.
import type { EventStream } from '../../runner/channel.js';
import type { RunEvent } from '../../runner/index.js';
import type { RunSink } from './sink.js';

export interface PumpOptions {
  /** The runner's event as the sinks get it (session/sinks/recordable.ts). */
  recordable(event: RunEvent): RunEvent;
  /** A write failed (RunControl.fail): no event after it is pumped. */
  failed(): boolean;
}

/** Pumps until the stream ends or a write fails; a failure of the stream (or of a sink) is returned, never thrown. */
export async function pumpEvents(events: Pick<EventStream<RunEvent>, 'batches'>, sinks: readonly RunSink[], options: PumpOptions): Promise<{ error: unknown } | null> {
  const listening = sinks.filter((sink) => sink.onEvent !== undefined);
  try {
    // A turn's events at once: the results that arrived in it are booked together, after it.
    batches: for await (const batch of events.batches()) {
      for (const event of batch) {
        if (options.failed()) break batches;
        const recorded = options.recordable(event);
        for (const sink of listening) {
          // One event per request is the hot path: a synchronous sink costs it no await.
          const pending = sink.onEvent!(recorded);
          if (pending !== undefined) await pending;
        }
      }
    }
    return null;
  } catch (error) {
    return { error };
  }
}
