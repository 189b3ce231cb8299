// The closed loop: at most N units in flight (a case, or a whole thread), each started as one ends.
import pLimit from 'p-limit';
import type { Sample } from '../domain/sample.js';
import type { Channel } from './channel.js';
import type { StartGate, StopReason } from './gate.js';
import type { RunUnit } from './request-spec.js';
import { RequestCancelled, sendRequest, type SendDeps } from './send.js';
import { runThread } from './thread.js';

export type RunEvent =
  | { type: 'sample'; sample: Sample }
  | { type: 'stopped'; reason: StopReason; detail: string }
  | { type: 'dropped'; count: number };

/** Runs one unit, pushing its samples; a hard abort ends it silently (nothing half-done is recorded). */
export async function runUnit(unit: RunUnit, deps: SendDeps, gate: StartGate, emit: (s: Sample) => void): Promise<void> {
  try {
    if (unit.kind === 'thread') {
      await runThread(unit.thread, deps, { stopped: () => gate.stopped !== null, beforeTurn: (spec) => gate.enter(spec), emit });
      return;
    }
    const release = await gate.enter(unit.request);
    if (!release) return;
    try {
      emit(await sendRequest(unit.request, deps, null));
    } finally {
      release();
    }
  } catch (error) {
    if (!(error instanceof RequestCancelled)) throw error;
  }
}

export function runClosedLoop(units: RunUnit[], concurrency: number, deps: SendDeps, gate: StartGate, channel: Channel<RunEvent>): void {
  const limit = pLimit(Math.max(1, concurrency));
  const emit = (sample: Sample): void => channel.push({ type: 'sample', sample });
  const tasks = units.map((unit) =>
    limit(async () => {
      if (gate.stopped) return;
      await runUnit(unit, deps, gate, emit);
    }),
  );
  Promise.all(tasks).then(
    () => channel.close(),
    (error: unknown) => channel.close(error),
  );
}
