// The ledger's reconciliation over a run's answers: sorted by the balance each reported, every step
// down should be the credits_used of the answer that made it (exact 1e-5 units). A step that is not
// is spend from outside the run (another client on the account) or a misreport.
import type { ReconciliationFindings, ReconciliationGap } from '../domain/credits.js';
import { fromUnits, toUnits } from './units.js';

export type { ReconciliationFindings, ReconciliationGap } from '../domain/credits.js';

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
