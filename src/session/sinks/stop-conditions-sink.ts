// The stop conditions as a sink (--max-errors, --max-error-rate, abortOnFail thresholds, an
// unreachable target): each recorded result out of warmup is judged; a condition met halts the run.
import type { ThresholdAbort } from '../../domain/suite.js';
import type { RunConfig } from '../../config/run-config.js';
import { systemClock, type Clock } from '../../runner/clock.js';
import type { RunEvent } from '../../runner/index.js';
import { createStopConditions, type StopConditionOptions } from '../stop-conditions.js';
import type { RunControl, RunSink } from './sink.js';

/** The run config's stop section, as the stop conditions read it. */
export function stopOptionsOf(config: Pick<RunConfig, 'stop'>, thresholdAborts: readonly ThresholdAbort[]): StopConditionOptions {
  const { stop } = config;
  return {
    ...(stop.maxErrors !== undefined ? { maxErrors: stop.maxErrors } : {}),
    ...(stop.maxErrorRate !== undefined ? { maxErrorRate: stop.maxErrorRate } : {}),
    ...(stop.errorWindowMs !== undefined ? { errorWindowMs: stop.errorWindowMs } : {}),
    thresholdAborts,
  };
}

/** `runStartMs` on `clock`: the run's t0 (delayAbortEval counts from it). */
export function stopConditionsSink(options: StopConditionOptions, runStartMs: number, control: Pick<RunControl, 'halt'>, clock: Pick<Clock, 'now'> = systemClock): RunSink {
  const conditions = createStopConditions(options, runStartMs);
  return {
    name: 'stop-conditions',
    onEvent(event: RunEvent): void {
      if (event.type !== 'sample' || event.sample.warmup === true || conditions === null) return;
      const decision = conditions.observe(event.sample, clock.now());
      if (decision !== null) control.halt(decision);
    },
    close: () => ({}),
  };
}
