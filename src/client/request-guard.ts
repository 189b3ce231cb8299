// One AbortSignal per request that fires on the caller's abort or on the whole-request deadline,
// and remembers which of the two it was (undici only reports "aborted").
import { AbortedError } from '../domain/index.js';
import { deadlineListFor, type DeadlineEntry, type DeadlineList } from './deadlines.js';

export type GuardReason = 'timeout' | 'caller' | 'cancelled';

/** The abort reason handed to undici; never shown to users. */
export class GuardAbort extends Error {
  constructor(readonly reason: GuardReason) {
    super(`request ${reason}`);
  }
}

/**
 * The requests in flight that listen to one caller signal (a run's abort, shared by thousands). One
 * listener per signal walks this set on abort: an EventTarget keeps its listeners in a list, so a
 * listener added and removed per request cost a walk of every request in flight, each time.
 */
const listeners = new WeakMap<AbortSignal, Set<() => void>>();

function onAbortOf(signal: AbortSignal, callback: () => void): () => void {
  let set = listeners.get(signal);
  if (!set) {
    const members = new Set<() => void>();
    listeners.set(signal, members);
    signal.addEventListener('abort', () => {
      for (const member of [...members]) member();
      members.clear();
    }, { once: true });
    set = members;
  }
  set.add(callback);
  return () => {
    set.delete(callback);
  };
}

export class RequestGuard implements DeadlineEntry {
  reason: GuardReason | null = null;
  /**
   * Made only when someone asks for `signal` (the JSON exchanges): an answer is dispatched with a
   * handler that `onAbort` cancels directly, since an AbortController per request, and the listener
   * undici adds to its signal, showed in the profile of a load test.
   */
  private controller: AbortController | null = null;
  /** Called once, on the abort, with the reason handed to undici. */
  onAbort: ((reason: GuardAbort) => void) | null = null;
  // The deadline, as an entry of the list of its timeout length (client/deadlines.ts).
  deadlineAtMs = Infinity;
  prev: DeadlineEntry | null = null;
  next: DeadlineEntry | null = null;
  list: DeadlineList | null = null;
  private readonly unlisten: (() => void) | undefined;

  constructor(
    callerSignal: AbortSignal | undefined,
    readonly timeoutMs: number,
    label: string,
  ) {
    if (callerSignal?.aborted) throw new AbortedError(`${label}: aborted by the caller before it was sent`);
    this.unlisten = callerSignal ? onAbortOf(callerSignal, () => this.abort('caller')) : undefined;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      this.deadlineAtMs = performance.now() + timeoutMs;
      deadlineListFor(timeoutMs).add(this);
    }
  }

  expire(): void {
    this.abort('timeout');
  }

  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.reason !== null) this.controller.abort(new GuardAbort(this.reason));
    }
    return this.controller.signal;
  }

  abort(reason: GuardReason): void {
    if (this.reason !== null) return;
    this.reason = reason;
    const abortReason = new GuardAbort(reason);
    this.controller?.abort(abortReason);
    this.onAbort?.(abortReason);
  }

  dispose(): void {
    this.list?.remove(this);
    this.unlisten?.();
  }
}
