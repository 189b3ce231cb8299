// The service-wide pause fault: every `everyMs` the whole service stops for `forMs`, as a
// garbage-collection pause or a failover does. Requests arriving meanwhile wait, and streams in
// flight send nothing until it ends; the fault corrected latency exists to expose.
import { sleep } from './clock.js';

export interface PauseSchedule {
  /** Time from one pause's start to the next; 0 = never paused. */
  everyMs: number;
  /** Length of each pause; shorter than everyMs. */
  forMs: number;
}

/** Pauses start at origin + k·everyMs (k ≥ 1): the first one a full period after the service starts. */
export class PauseFault {
  private readonly originMs: number;
  private readonly now: () => number;
  private readonly sleep: typeof sleep;

  /** `timers`: the clock and the wait (tests give fake ones; the service the monotonic clock and setTimeout). */
  constructor(
    private readonly schedule: PauseSchedule,
    timers: { now?: () => number; sleep?: typeof sleep } = {},
  ) {
    this.now = timers.now ?? (() => performance.now());
    this.sleep = timers.sleep ?? sleep;
    this.originMs = this.now();
  }

  get enabled(): boolean {
    // A pause as long as its period would never end: the options refuse it, and so does this.
    return this.schedule.forMs > 0 && this.schedule.forMs < this.schedule.everyMs;
  }

  /** How much longer the current pause lasts; 0 outside a pause. */
  remainingMs(): number {
    if (!this.enabled) return 0;
    const sinceMs = this.now() - this.originMs;
    if (sinceMs < this.schedule.everyMs) return 0;
    const intoPauseMs = sinceMs % this.schedule.everyMs;
    return intoPauseMs < this.schedule.forMs ? this.schedule.forMs - intoPauseMs : 0;
  }

  /** Resolves at once outside a pause, else when it ends (or rejects when the client leaves). */
  async wait(signal?: AbortSignal): Promise<void> {
    // A timer may fire a little early or late; check again so nothing slips out of a pause.
    for (let remaining = this.remainingMs(); remaining > 0; remaining = this.remainingMs()) {
      await this.sleep(Math.max(1, remaining), signal);
    }
  }
}
