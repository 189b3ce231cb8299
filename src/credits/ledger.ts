// The credit ledger of a run: what was spent, what the service says remains, and whether they agree.

/** Credits are reported to 5 decimals; sums are kept in integer 1e-5 units so they add exactly. */
const UNITS = 100_000;
export const toUnits = (credits: number): number => Math.round(credits * UNITS);
export const fromUnits = (units: number): number => units / UNITS;

export interface LedgerEntry {
  creditsUsed: number | null;
  creditsRemaining: number | null;
}

export interface Reconciliation {
  spent: number;
  unknown: number;
  /** Balance before the run, inferred from the first answer that reported remaining credits. */
  start_remaining: number | null;
  /** The lowest remaining credits any answer reported (answers can finish out of order). */
  last_remaining: number | null;
  /** start - spent - last; 0 when every debit is accounted for, positive when others spent too. */
  drift: number | null;
}

export class CreditLedger {
  private spentUnits = 0;
  private unknownCount = 0;
  private startUnits: number | null = null;
  private lowestUnits: number | null = null;
  private readonly maxByModel = new Map<string, number>();

  record(model: string, entry: LedgerEntry): void {
    if (entry.creditsUsed === null) {
      this.unknownCount += 1;
    } else {
      const used = toUnits(entry.creditsUsed);
      this.spentUnits += used;
      this.maxByModel.set(model, Math.max(this.maxByModel.get(model) ?? 0, used));
      if (entry.creditsRemaining !== null && this.startUnits === null) {
        // The first answer tells the balance before it: remaining + used, minus what was spent before it.
        this.startUnits = toUnits(entry.creditsRemaining) + this.spentUnits;
      }
    }
    if (entry.creditsRemaining !== null) {
      const remaining = toUnits(entry.creditsRemaining);
      this.lowestUnits = this.lowestUnits === null ? remaining : Math.min(this.lowestUnits, remaining);
    }
  }

  /** Credits spent outside a request line (a judge's answer) still count against the budget. */
  recordExtra(credits: number): void {
    this.spentUnits += toUnits(credits);
  }

  get spent(): number {
    return fromUnits(this.spentUnits);
  }

  get lastRemaining(): number | null {
    return this.lowestUnits === null ? null : fromUnits(this.lowestUnits);
  }

  /** The largest single answer seen (for a model, else any): the worst case the budget guard assumes. */
  worstCase(model: string): number | null {
    const own = this.maxByModel.get(model);
    if (own !== undefined) return fromUnits(own);
    if (this.maxByModel.size === 0) return null;
    return fromUnits(Math.max(...this.maxByModel.values()));
  }

  reconcile(): Reconciliation {
    const drift =
      this.startUnits === null || this.lowestUnits === null ? null : fromUnits(this.startUnits - this.spentUnits - this.lowestUnits);
    return {
      spent: this.spent,
      unknown: this.unknownCount,
      start_remaining: this.startUnits === null ? null : fromUnits(this.startUnits),
      last_remaining: this.lastRemaining,
      drift,
    };
  }
}
