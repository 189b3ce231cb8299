// Request deadlines on one timer per timeout length: every request of a run has the same timeout,
// so their deadlines come in the order they were set, and a list in that order with one timer for
// its first entry does what a setTimeout per request did, without a Timeout object and a closure
// per request (both among what a load test's garbage collections promoted, in its heap profile).
import { systemClock, type Clock, type ClockTimer } from '../runner/clock.js';

/** One entry of a deadline list: a request's guard, linked in place (no node object of its own). */
export interface DeadlineEntry {
  deadlineAtMs: number;
  prev: DeadlineEntry | null;
  next: DeadlineEntry | null;
  /** The list it is in, null once it fired or was removed. */
  list: DeadlineList | null;
  expire(): void;
}

/** Deadlines of one timeout length, in the order they were set (so in deadline order too). */
export class DeadlineList {
  private head: DeadlineEntry | null = null;
  private tail: DeadlineEntry | null = null;
  private timer: ClockTimer | null = null;
  private timerAtMs = Infinity;

  /** `clock`: performance.now and setTimeout in a run (entries' deadlines are on it); a fake one in a test. */
  constructor(private readonly clock: Clock = systemClock) {}

  add(entry: DeadlineEntry): void {
    entry.list = this;
    entry.prev = this.tail;
    entry.next = null;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
    if (this.timer === null) this.arm(entry.deadlineAtMs);
  }

  remove(entry: DeadlineEntry): void {
    if (entry.list !== this) return;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = entry.list = null;
    // Nothing left to wait for: the timer must not keep the process alive for a request that ended.
    if (this.head === null && this.timer !== null) {
      this.clock.clearTimer(this.timer);
      this.timer = null;
      this.timerAtMs = Infinity;
    }
  }

  private arm(atMs: number): void {
    this.timerAtMs = atMs;
    // A timer may fire up to a millisecond early: whatever is not yet due is waited for again.
    this.timer = this.clock.setTimer(this.fire, Math.max(1, Math.ceil(atMs - this.clock.now())));
  }

  private readonly fire = (): void => {
    this.timer = null;
    const now = this.clock.now();
    // Entries are in deadline order: the expired ones are at the front.
    while (this.head !== null && this.head.deadlineAtMs <= now) {
      const due = this.head;
      this.remove(due);
      due.expire();
    }
    // An expiry may have set a new deadline (a retry): the timer is for the earliest one.
    if (this.head === null) return;
    if (this.timer !== null && this.timerAtMs <= this.head.deadlineAtMs) return;
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.arm(this.head.deadlineAtMs);
  };

  /** For tests: whether a timer is armed, and for when. */
  get armedAtMs(): number | null {
    return this.timer === null ? null : this.timerAtMs;
  }
}

const lists = new Map<number, DeadlineList>();

/** The list for deadlines `timeoutMs` from when they are set (one per distinct timeout). */
export function deadlineListFor(timeoutMs: number): DeadlineList {
  let list = lists.get(timeoutMs);
  if (list === undefined) {
    list = new DeadlineList();
    lists.set(timeoutMs, list);
  }
  return list;
}
