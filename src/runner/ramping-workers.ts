// The closed loop with a ramp of concurrency (k6's ramping-vus): the number of workers follows the
// stages' target, linearly between them. A worker above the target stops after its unit ends (never
// mid-unit); starts cycle through the plan until the stages end, then in-flight units finish.
import type { Sample } from '../domain/sample.js';
import { profileDurationMs, targetRateAt, type LoadProfile } from './arrivals.js';
import { monotonicMs } from './clock.js';
import type { StartGate } from './gate.js';
import { cyclingStarts } from './open-loop.js';
import type { MixOptions } from './mix.js';
import type { SendDeps } from './send.js';
import { runUnit, type EventSink, type UnitSource } from './unit.js';

/** How often the target is looked at: ramps are seconds long, a tenth of one is fine-grained enough. */
const STEER_EVERY_MS = 100;

export function runRampingWorkers(source: UnitSource, profile: LoadProfile, deps: SendDeps, gate: StartGate, channel: EventSink, mix?: MixOptions): void {
  const draw = cyclingStarts(source, mix);
  const t0 = monotonicMs();
  const endMs = profileDurationMs(profile);
  const emit = (sample: Sample): void => channel.push({ type: 'sample', sample });
  let workers = 0;
  let failed = false;
  let steering = true;
  let timer: NodeJS.Timeout | undefined;
  const target = (): number => Math.round(targetRateAt(profile, monotonicMs() - t0));
  const over = (): boolean => failed || gate.stopped !== null || monotonicMs() - t0 >= endMs;

  const finish = (): void => {
    if (!steering && workers === 0) channel.close();
  };
  const worker = async (): Promise<void> => {
    try {
      while (!over() && workers <= target()) {
        const unit = draw(null);
        if (unit === null) break;
        channel.push({ type: 'start', at_ms: monotonicMs(), intended_at_ms: null });
        await runUnit(unit, deps, gate, emit);
        channel.push({ type: 'settled' });
      }
    } finally {
      // At once, not a microtask later: the next worker to look sees one fewer and stays.
      workers -= 1;
    }
  };
  const launch = (): void => {
    workers += 1;
    worker().then(
      finish,
      (error: unknown) => {
        failed = true;
        clearTimeout(timer);
        steering = false;
        channel.close(error);
      },
    );
  };
  const steer = (): void => {
    if (over()) {
      steering = false;
      return finish();
    }
    for (let want = target(); workers < want; ) launch();
    timer = setTimeout(steer, Math.min(STEER_EVERY_MS, Math.max(0, endMs - (monotonicMs() - t0))));
  };
  steer();
}
