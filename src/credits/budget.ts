// The budget guard: no request starts once what is spent plus the worst case in flight could pass the limit.
import type { CreditLedger } from './ledger.js';

export interface BudgetLimits {
  /** --max-credits: total the run may spend. */
  maxCredits?: number;
  /** --min-remaining: stop before the account's remaining credits could fall below this. */
  minRemaining?: number;
}

/**
 * The worst case of a request is the largest answer seen so far (for its model), times a
 * margin: answers vary in length. Before any answer is seen nothing is known, so only one
 * request may be in flight (a probe) and the guard learns from it.
 */
const WORST_CASE_MARGIN = 1.5;

type Decision = { kind: 'go'; worst: number } | { kind: 'wait' } | { kind: 'stop' };

export class BudgetGuard {
  private readonly inFlight = new Map<number, number>();
  private nextTicket = 0;
  private wakeUps: (() => void)[] = [];

  constructor(
    private readonly limits: BudgetLimits,
    private readonly ledger: CreditLedger,
  ) {}

  get active(): boolean {
    return this.limits.maxCredits !== undefined || this.limits.minRemaining !== undefined;
  }

  /** Waits until a request of `model` may start; returns its ticket, or null when the budget forbids it. */
  async acquire(model: string): Promise<number | null> {
    for (;;) {
      const decision = this.decide(model);
      if (decision.kind === 'stop') return null;
      if (decision.kind === 'go') return this.issue(decision.worst);
      await new Promise<void>((resolve) => this.wakeUps.push(resolve));
    }
  }

  /** Call after the request's credits are in the ledger. */
  release(ticket: number): void {
    this.inFlight.delete(ticket);
    const waiting = this.wakeUps;
    this.wakeUps = [];
    for (const wake of waiting) wake();
  }

  private decide(model: string): Decision {
    if (!this.active) return { kind: 'go', worst: 0 };
    const known = this.ledger.worstCase(model);
    if (known === null && this.inFlight.size > 0) return { kind: 'wait' };
    const worst = (known ?? 0) * WORST_CASE_MARGIN;
    const pending = [...this.inFlight.values()].reduce((a, b) => a + b, 0);
    const { maxCredits, minRemaining } = this.limits;
    if (maxCredits !== undefined && this.ledger.spent + pending + worst > maxCredits) return { kind: 'stop' };
    const remaining = this.ledger.lastRemaining;
    if (minRemaining !== undefined && remaining !== null && remaining - pending - worst < minRemaining) return { kind: 'stop' };
    return { kind: 'go', worst };
  }

  private issue(worst: number): number {
    const ticket = this.nextTicket++;
    this.inFlight.set(ticket, worst);
    return ticket;
  }
}
