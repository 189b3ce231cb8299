// One AbortSignal per request that fires on the caller's abort or on the whole-request deadline,
// and remembers which of the two it was (undici only reports "aborted").
import { AbortedError } from '../domain/index.js';

export type GuardReason = 'timeout' | 'caller' | 'cancelled';

/** The abort reason handed to undici; never shown to users. */
export class GuardAbort extends Error {
  constructor(readonly reason: GuardReason) {
    super(`request ${reason}`);
  }
}

export class RequestGuard {
  reason: GuardReason | null = null;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = (): void => this.abort('caller');

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    readonly timeoutMs: number,
    label: string,
  ) {
    if (callerSignal?.aborted) throw new AbortedError(`${label}: aborted by the caller before it was sent`);
    callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) this.timer = setTimeout(() => this.abort('timeout'), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: GuardReason): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.controller.abort(new GuardAbort(reason));
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}
