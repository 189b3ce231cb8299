// The ledger's reconciliation over a run's answers: sorted by the balance each reported, every step
// down should be the credits_used of the answer that made it (exact 1e-5 units). A step that is not
// is spend from outside the run (another client on the account) or a misreport.
import { fromUnits, toUnits } from './units.js';

export interface ReconciliationGap {
  /** The answer reporting the higher balance, and the one reporting the next lower. */
  after_item: string;
  before_item: string;
  from_remaining: number;
  to_remaining: number;
  /** What the lower answer said it cost. */
  expected: number;
  /** The step down minus `expected`: positive is spend the run did not make; negative, a misreport. */
  amount: number;
}

export interface ReconciliationFindings {
  /** Answers that reported both credits_used and credits_remaining. */
  answers: number;
  start_remaining: number | null;
  end_remaining: number | null;
  /** The sum of every gap, less what the run's judges spent (they report no balance). */
  unexplained: number;
  /** Credits the run's checks (judges) spent: charged to the account between answers. */
  check_credits: number;
  /** The largest gaps (by size), at most MAX_GAPS; `gaps_left_out` counts the rest. */
  gaps: ReconciliationGap[];
  gaps_left_out: number;
}

export const MAX_GAPS = 50;

/** Two numbers and an id per answer that reports a balance: the sort needs them all. */
export class BalanceSteps {
  private readonly remaining: number[] = [];
  private readonly used: number[] = [];
  private readonly items: string[] = [];
  private checkUnits = 0;

  add(item: string, creditsUsed: number | null, creditsRemaining: number | null, checkUnits = 0): void {
    this.checkUnits += checkUnits;
    if (creditsUsed === null || creditsRemaining === null) return;
    this.remaining.push(toUnits(creditsRemaining));
    this.used.push(toUnits(creditsUsed));
    this.items.push(item);
  }

  reconcile(): ReconciliationFindings {
    const order = this.remaining.map((_, i) => i).sort((a, b) => this.remaining[b]! - this.remaining[a]! || this.used[a]! - this.used[b]!);
    const gaps: ReconciliationGap[] = [];
    let gapUnits = 0;
    let count = 0;
    for (let k = 1; k < order.length; k += 1) {
      const hi = order[k - 1]!;
      const lo = order[k]!;
      const step = this.remaining[hi]! - this.remaining[lo]!;
      const amount = step - this.used[lo]!;
      if (amount === 0) continue;
      gapUnits += amount;
      count += 1;
      gaps.push({
        after_item: this.items[hi]!, before_item: this.items[lo]!, from_remaining: fromUnits(this.remaining[hi]!), to_remaining: fromUnits(this.remaining[lo]!),
        expected: fromUnits(this.used[lo]!), amount: fromUnits(amount),
      });
    }
    gaps.sort((a, b) => Math.abs(b.amount) - Math.abs(a.amount));
    const first = order[0];
    const last = order.at(-1);
    return {
      answers: order.length,
      start_remaining: first === undefined ? null : fromUnits(this.remaining[first]! + this.used[first]!),
      end_remaining: last === undefined ? null : fromUnits(this.remaining[last]!),
      unexplained: fromUnits(Math.max(0, gapUnits - this.checkUnits)),
      check_credits: fromUnits(this.checkUnits),
      gaps: gaps.slice(0, MAX_GAPS),
      gaps_left_out: Math.max(0, count - MAX_GAPS),
    };
  }
}
