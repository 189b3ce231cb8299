// Per-model generation capacity: a few answers generate at once, the next ones queue (first in,
// first out), and beyond the queue the service turns requests away, as an inference backend does.

/** How many answers one model generates at once, and how many more may wait. */
export interface CapacityLimits {
  /** Concurrent generation slots; 0 = unlimited (no queue, never overloaded). */
  slots: number;
  /** Requests that may wait for a slot; a request finding the queue full is refused. */
  queueLimit: number;
}

/** A slot held by one answer until release() (idempotent: a stream may end in several ways at once). */
export interface Admitted {
  ok: true;
  /** Whether the request had to wait: the service was saturated when it arrived. */
  queued: boolean;
  release(): void;
}

export type Admission = Admitted | { ok: false; reason: 'queue-full' };

interface Waiter {
  grant(): void;
}

/** One model's slots and queue. */
export class ModelCapacity {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: CapacityLimits) {}

  get activeCount(): number {
    return this.active;
  }

  get queuedCount(): number {
    return this.waiting.length;
  }

  /**
   * Resolves once a slot is free (at once when one is), or at once with `queue-full`. Rejects with
   * the signal's reason when the client leaves while waiting, and that request leaves the queue.
   */
  acquire(signal?: AbortSignal): Promise<Admission> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    if (this.limits.slots <= 0) return Promise.resolve(this.admit(false, false));
    if (this.active < this.limits.slots && this.waiting.length === 0) return Promise.resolve(this.admit(false, true));
    if (this.waiting.length >= this.limits.queueLimit) return Promise.resolve({ ok: false, reason: 'queue-full' });
    return new Promise<Admission>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.admit(true, true));
        },
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private admit(queued: boolean, counted: boolean): Admitted {
    if (counted) this.active++;
    let released = !counted;
    return {
      ok: true,
      queued,
      release: () => {
        if (released) return;
        released = true;
        this.active--;
        // The freed slot goes to the longest-waiting request, so the queue never starves anyone.
        const next = this.waiting.shift();
        next?.grant();
      },
    };
  }
}

/** Every model's capacity, created on first use from the limits of that model. */
export class CapacityModel {
  private readonly byModel = new Map<string, ModelCapacity>();

  /** `limitsOf` gives a model's limits; `enabled` false admits everything at once (latencyScale 0). */
  constructor(
    private readonly limitsOf: (model: string) => CapacityLimits,
    private readonly enabled: boolean,
  ) {}

  acquire(model: string, signal?: AbortSignal): Promise<Admission> {
    const limits = this.enabled ? this.limitsOf(model) : { slots: 0, queueLimit: 0 };
    let capacity = this.byModel.get(model);
    if (!capacity) {
      capacity = new ModelCapacity(limits);
      this.byModel.set(model, capacity);
    }
    return capacity.acquire(signal);
  }

  /** Slots in use and requests waiting per model (for tests and diagnostics). */
  load(model: string): { active: number; queued: number } {
    const capacity = this.byModel.get(model);
    return { active: capacity?.activeCount ?? 0, queued: capacity?.queuedCount ?? 0 };
  }
}
