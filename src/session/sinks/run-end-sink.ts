// How the run ended, as a sink: the runner's stop (a budget, a signal), the starts it dropped, and
// the first stop condition met, which halts the run (the one decision the run records).
import type { RunEvent, StopReason } from '../../runner/index.js';
import type { StopDecision } from '../stop-conditions.js';
import type { RunSink, SinkOutcome } from './sink.js';

export interface RunEndSink extends RunSink {
  /** A stop condition met: the runner halts, unless it stopped already or another condition came first. */
  halt(decision: StopDecision): void;
}

/** `halt`: the runner's clean stop (RunHandle.halt): no new request starts, those in flight get the graceful stop. */
export function runEndSink(halt: (by: StopReason, detail: string) => void): RunEndSink {
  let stop: SinkOutcome['stop'] | undefined;
  let abort: StopDecision | undefined;
  let dropped = 0;
  return {
    name: 'run-end',
    onEvent(event: RunEvent): void {
      if (event.type === 'stopped') stop = { reason: event.reason, detail: event.detail };
      else if (event.type === 'dropped') dropped += event.count;
    },
    halt(decision: StopDecision): void {
      if (stop !== undefined || abort !== undefined) return;
      abort = decision;
      halt(decision.by, decision.detail);
    },
    close: (): SinkOutcome => ({ dropped, ...(stop ? { stop } : {}), ...(abort ? { abort } : {}) }),
  };
}
