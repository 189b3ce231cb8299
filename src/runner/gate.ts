// The gate every request passes before it starts: the stop signal and the credit budget.
import type { BudgetGuard } from '../credits/budget.js';
import type { PlanRequest } from '../plan/types.js';

/**
 * Why a run stops early: its stop conditions (an abortOnFail threshold, --max-errors,
 * --max-error-rate), a setup mistake (the same refusal of every request from the start) and an
 * unreachable target (every result of a window failed to connect).
 */
export type AbortBy = 'threshold' | 'max-errors' | 'max-error-rate' | 'setup' | 'unreachable';
export type StopReason = 'budget-exhausted' | 'interrupted' | AbortBy;

export type Release = () => void;
const NOTHING_TO_RELEASE: Release = () => undefined;

export class StartGate {
  private reason: StopReason | null = null;

  constructor(
    private readonly budget: BudgetGuard,
    private readonly stop: AbortSignal,
    private readonly onStop: (reason: StopReason, detail: string) => void,
  ) {}

  get stopped(): StopReason | null {
    if (this.reason === null && this.stop.aborted) this.halt('interrupted');
    return this.reason;
  }

  /**
   * A release function, or null when no new request may start; a promise of one while the credit
   * budget decides. Without a budget nothing is waited for, and nothing is made per request: an
   * async call (and the budget's ticket) per request showed in a load test's profile.
   */
  enter(spec: PlanRequest): Promise<Release | null> | Release | null {
    if (this.stopped) return null;
    if (!this.budget.active) return NOTHING_TO_RELEASE;
    return this.enterBudget(spec);
  }

  private async enterBudget(spec: PlanRequest): Promise<Release | null> {
    const granted = await this.budget.acquire(spec.model);
    if ('stop' in granted) {
      this.halt('budget-exhausted', granted.stop);
      return null;
    }
    const { ticket } = granted;
    if (this.stopped) {
      this.budget.release(ticket);
      return null;
    }
    return () => this.budget.release(ticket);
  }

  /** No request starts after this returns (a request past `enter` is in flight and finishes). */
  halt(reason: StopReason, detail = 'interrupted by a signal'): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.onStop(reason, detail);
  }
}
