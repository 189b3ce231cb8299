// The credit ledger of a run: what was spent, what the service says remains, and whether they agree.

import { fromUnits, toUnits } from './units.js';

export { fromUnits, toUnits } from './units.js';

export interface LedgerEntry {
  creditsUsed: number | null;
  creditsRemaining: number | null;
  /**
   * The service charged for this answer but did not say how much (a stream without a usage chunk,
   * or one cut after it started). A failed request that was never answered is not charged.
   */
  paidUnknown?: boolean;
  /**
   * A JSON answer arrived without a usable credits_remaining: what was seen (`missing`, `null`,
   * `1e308`). Before any balance is known, --min-remaining then has nothing to guard with.
   */
  balanceMissing?: string;
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
  /** Answers of unknown cost, counted at their model's worst case so a budget stays a bound. */
  private assumedUnits = 0;
  private unknownCount = 0;
  /** An answer of unknown cost came before any known cost of its model: no bound can be kept. */
  private unboundedCount = 0;
  private startUnits: number | null = null;
  private lowestUnits: number | null = null;
  private firstBalanceMissing: string | null = null;
  private readonly maxAnswerByModel = new Map<string, number>();
  private readonly maxExtraByModel = new Map<string, number>();
  private readonly pricedByModel = new Map<string, number>();

  record(model: string, entry: LedgerEntry): void {
    if (entry.creditsUsed !== null) {
      const used = toUnits(entry.creditsUsed);
      this.spentUnits += used;
      this.maxAnswerByModel.set(model, Math.max(this.maxAnswerByModel.get(model) ?? 0, used));
      this.pricedByModel.set(model, (this.pricedByModel.get(model) ?? 0) + 1);
      // The first answer with a balance tells the balance before the run: remaining + all spent so far.
      if (entry.creditsRemaining !== null && this.startUnits === null) this.startUnits = toUnits(entry.creditsRemaining) + this.spentUnits;
    } else if (entry.paidUnknown) {
      this.unknownCount += 1;
      // Its own model's largest request bounds it; else the largest of any model (a first answer cut midway).
      const largest = this.largestWorstCase();
      const worst = this.worstCaseUnits(model) ?? (largest === null ? null : toUnits(largest));
      if (worst === null) this.unboundedCount += 1;
      else this.assumedUnits += worst;
    }
    if (entry.balanceMissing !== undefined && this.firstBalanceMissing === null) this.firstBalanceMissing = entry.balanceMissing;
    if (entry.creditsRemaining !== null) {
      const remaining = toUnits(entry.creditsRemaining);
      this.lowestUnits = this.lowestUnits === null ? remaining : Math.min(this.lowestUnits, remaining);
    }
  }

  /** Credits a request spent besides its answer (the judges that graded it). */
  recordExtra(model: string, credits: number): void {
    const units = toUnits(credits);
    this.spentUnits += units;
    this.maxExtraByModel.set(model, Math.max(this.maxExtraByModel.get(model) ?? 0, units));
  }

  /** Reported spend: what the service said each answer cost. */
  get spent(): number {
    return fromUnits(this.spentUnits);
  }

  /** What the budget counts: reported spend plus answers of unknown cost at their worst case. */
  get committed(): number {
    return fromUnits(this.spentUnits + this.assumedUnits);
  }

  /** True when an answer's cost was unknown and nothing bounded it: a budget cannot be kept. */
  get unbounded(): boolean {
    return this.unboundedCount > 0;
  }

  /** What the first JSON answer without a usable balance reported instead (null while none came). */
  get balanceMissing(): string | null {
    return this.firstBalanceMissing;
  }

  get lastRemaining(): number | null {
    return this.lowestUnits === null ? null : fromUnits(this.lowestUnits);
  }

  /**
   * The balance now, as the budget guard reads it: the lower of the balance before the run less
   * everything spent since, and the lowest balance the service itself reported. A service whose
   * balance falls faster than its credits_used says (others spending, hidden charges) is believed;
   * so is one that reports a balance but no valid credits_used. Null until any balance is known.
   */
  get estimatedRemaining(): number | null {
    const derived = this.startUnits === null ? null : this.startUnits - this.spentUnits - this.assumedUnits;
    const reported = this.lowestUnits;
    if (derived === null) return reported === null ? null : fromUnits(reported);
    return fromUnits(reported === null ? derived : Math.min(derived, reported));
  }

  /** How many answers of this model reported what they cost. */
  pricedAnswers(model: string): number {
    return this.pricedByModel.get(model) ?? 0;
  }

  /** The largest request of this model seen (answer plus judges); null until the model has answered. */
  worstCase(model: string): number | null {
    const units = this.worstCaseUnits(model);
    return units === null ? null : fromUnits(units);
  }

  /** The largest request of any model: the stand-in for a model not seen yet. */
  largestWorstCase(): number | null {
    let largest: number | null = null;
    for (const model of this.maxAnswerByModel.keys()) largest = Math.max(largest ?? 0, this.worstCaseUnits(model)!);
    return largest === null ? null : fromUnits(largest);
  }

  private worstCaseUnits(model: string): number | null {
    const answer = this.maxAnswerByModel.get(model);
    return answer === undefined ? null : answer + (this.maxExtraByModel.get(model) ?? 0);
  }

  /**
   * The live, bounded check: the total drift between the first balance and the last. Which steps make
   * it up (the answers around each gap, and the amounts) is found from results.ndjson by
   * credits/reconcile.ts, for summary.json `credits.reconciliation`, merged shards included.
   */
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
