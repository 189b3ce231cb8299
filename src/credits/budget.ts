// The budget guard: no request starts once what is spent plus the worst case in flight could pass the limit.
import type { CreditLedger } from './ledger.js';

export interface BudgetLimits {
  /** --max-credits: total the run may spend. */
  maxCredits?: number;
  /** --min-remaining: stop before the account's remaining credits could fall below this. */
  minRemaining?: number;
}

/**
 * A request's worst case is the largest request of its model seen so far (answer plus the judges
 * that graded it) times this margin: answers vary in length and thread turns grow with history.
 */
export const WORST_CASE_MARGIN = 2;

/**
 * Until this many answers of a model have reported their cost, its requests run alone, one at a
 * time: a first answer that costs 0.01 says little about the next (which may cost 1.0), and a
 * reservation from it would let many start at once (8 answers of 1.0 admitted on a 2-credit
 * budget). Alone, a request that costs more than feared passes the budget by at most itself.
 * docs/credits.md states the guarantee this gives.
 */
export const PRICED_BEFORE_CONCURRENCY = 5;

export type BudgetDecision = { kind: 'go'; worst: number } | { kind: 'wait' } | { kind: 'stop'; reason: string };

interface Reservation {
  model: string;
  worst: number;
}

export class BudgetGuard {
  private readonly inFlight = new Map<number, Reservation>();
  private nextTicket = 0;
  private wakeUps: (() => void)[] = [];
  private readonly probesWaiting = new Set<string>();

  constructor(
    private readonly limits: BudgetLimits,
    private readonly ledger: CreditLedger,
  ) {}

  get active(): boolean {
    return this.limits.maxCredits !== undefined || this.limits.minRemaining !== undefined;
  }

  /** Waits until a request of `model` may start: its ticket, or the reason no more may start. */
  async acquire(model: string): Promise<{ ticket: number } | { stop: string }> {
    for (;;) {
      const decision = this.decide(model);
      if (decision.kind === 'stop') return { stop: decision.reason };
      if (decision.kind === 'go') return { ticket: this.issue(model, decision.worst) };
      await new Promise<void>((resolve) => this.wakeUps.push(resolve));
    }
  }

  /** Call after the request's credits are in the ledger. */
  release(ticket: number): void {
    this.inFlight.delete(ticket);
    if (this.wakeUps.length === 0) return;
    const waiting = this.wakeUps;
    this.wakeUps = [];
    for (const wake of waiting) wake();
  }

  /** Exported for tests: the decision for a request of `model` now. */
  decide(model: string): BudgetDecision {
    if (!this.active) return { kind: 'go', worst: 0 };
    // A balance the service reports still guards --min-remaining (read as reported, one request at a time).
    const balanceGuards = this.limits.maxCredits === undefined && this.ledger.estimatedRemaining !== null;
    if (this.ledger.unbounded && !balanceGuards) {
      return { kind: 'stop', reason: 'an answer was charged but its cost was not reported (no usage chunk, or a stream cut midway) before any cost was known, so the budget cannot be kept; --no-stream answers always report it' };
    }
    const unguarded = this.minRemainingUnguarded();
    if (unguarded !== null) return { kind: 'stop', reason: unguarded };
    const known = this.ledger.worstCase(model);
    const learning = this.ledger.pricedAnswers(model) < PRICED_BEFORE_CONCURRENCY;
    const busy = this.inFlight.size > 0;
    // No balance known yet: one request at a time until an answer reports credits_remaining.
    if (this.limits.minRemaining !== undefined && this.ledger.estimatedRemaining === null && busy) return { kind: 'wait' };
    if (learning && busy) {
      this.probesWaiting.add(model);
      return { kind: 'wait' }; // a probe (a model whose cost is not known yet) runs alone
    }
    // A waiting probe goes next: known models stop taking new slots until the run drains to it.
    if (busy && this.probesWaiting.size > 0) return { kind: 'wait' };
    this.probesWaiting.delete(model);
    const worst = (known ?? this.ledger.largestWorstCase() ?? 0) * WORST_CASE_MARGIN;
    const pending = [...this.inFlight.values()].reduce((a, r) => a + r.worst, 0);
    const overMax = this.overMax(worst, pending, worst === 0);
    const underMin = this.underMin(worst, pending);
    if (overMax || underMin) {
      // Reservations in flight may come back cheaper than feared: wait for them before giving up.
      if (busy) return { kind: 'wait' };
      return { kind: 'stop', reason: overMax ? `the credit budget (--max-credits ${this.limits.maxCredits}) would be passed` : `the account could fall below --min-remaining ${this.limits.minRemaining}` };
    }
    return { kind: 'go', worst };
  }

  /**
   * --min-remaining guards with the balance the answers report. An answer that reported none (absent,
   * null, 1e308) before any balance was known leaves nothing to guard with: the run stops there, as
   * --max-credits does when nothing bounds a cost, instead of running on unguarded.
   */
  private minRemainingUnguarded(): string | null {
    const seen = this.ledger.balanceMissing;
    if (this.limits.minRemaining === undefined || seen === null || this.ledger.estimatedRemaining !== null) return null;
    return `--min-remaining ${this.limits.minRemaining} cannot guard: the service reported credits_remaining ${seen} (a finite number from 0 is needed), so the balance is unknown; drop --min-remaining, or use --max-credits`;
  }

  private overMax(worst: number, pending: number, probe: boolean): boolean {
    const { maxCredits } = this.limits;
    if (maxCredits === undefined) return false;
    const committed = this.ledger.committed;
    // Nothing known of any model yet: the first probe may start only while some budget is left.
    return probe ? committed + pending >= maxCredits : committed + pending + worst > maxCredits;
  }

  private underMin(worst: number, pending: number): boolean {
    const { minRemaining } = this.limits;
    const remaining = this.ledger.estimatedRemaining;
    if (minRemaining === undefined || remaining === null) return false;
    return remaining - pending - worst < minRemaining;
  }

  private issue(model: string, worst: number): number {
    const ticket = this.nextTicket++;
    this.inFlight.set(ticket, { model, worst });
    return ticket;
  }
}
