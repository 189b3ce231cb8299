// The closed loop: N workers, each drawing the next unit of the plan as its last one ends. Units are
// pulled when a worker is free, never queued up front, so memory follows the concurrency, not the plan.
import type { Sample } from '../domain/sample.js';
import { monotonicMs } from './clock.js';
import type { StartGate } from './gate.js';
import type { SendDeps } from './send.js';
import { runUnit, type EventSink, type UnitSource } from './unit.js';

export function runClosedLoop(source: UnitSource, concurrency: number, deps: SendDeps, gate: StartGate, channel: EventSink): void {
  const units = source.units();
  const emit = (sample: Sample): void => channel.push({ type: 'sample', sample });
  const worker = async (): Promise<void> => {
    while (!gate.stopped) {
      const next = units.next();
      if (next.done) return;
      channel.push({ type: 'start', at_ms: monotonicMs(), intended_at_ms: null });
      await runUnit(next.value, deps, gate, emit);
      channel.push({ type: 'settled' });
    }
  };
  Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker)).then(
    () => channel.close(),
    (error: unknown) => channel.close(error),
  );
}
