// summary.json `credits`: spend per model and per thread-turn position (sum, mean, spread), per passed
// answer, the balance over the run and where it came from, and the ledger's reconciliation. Memory:
// a few numbers per model and turn position, a bounded balance trace, and the reconciliation's
// external sort (one run of answers in memory, the rest on disk: credits/reconcile.ts).
import type { Sample } from '../domain/sample.js';
import type { CreditStats, CreditsMoney, CreditsSummary, ModelCredits, RemainingReadout } from '../domain/credits.js';
import { BalanceSteps, type BalanceStepsOptions } from './reconcile.js';
// The shapes live in domain/ (summary.json's types); re-exported for credits/' callers.
export type { CreditStats, CreditsMoney, CreditsSummary, ModelCredits, RemainingReadout } from '../domain/credits.js';
import { checkCreditUnits, fromUnits, roundCredits, sampleCreditUnits, toUnits } from './units.js';

export const MAX_TRACE = 200;

class Moments {
  requests = 0;
  units = 0;
  sumSq = 0;
  add(units: number): void {
    this.requests += 1;
    this.units += units;
    this.sumSq += fromUnits(units) ** 2;
  }
  stats(): CreditStats {
    const n = this.requests;
    const mean = n > 0 ? fromUnits(this.units) / n : null;
    const variance = n > 1 && mean !== null ? Math.max(0, (this.sumSq - n * mean * mean) / (n - 1)) : null;
    return { requests: n, sum: fromUnits(this.units), mean: mean === null ? null : roundCredits(mean), sd: variance === null ? null : roundCredits(Math.sqrt(variance)) };
  }
}

const NO_BALANCE = 'no answer reported credits_remaining: a streamed answer\'s usage chunk carries credits_used alone (--no-stream answers report it, as do services that add it to the usage chunk)';

export class RunCredits {
  private readonly models = new Map<string, { moments: Moments; passed: number }>();
  private readonly turns = new Map<string, Moments>();
  private readonly steps: BalanceSteps;
  private trace: { offset_ms: number; credits: number }[] = [];
  private traceStride = 1;
  private traceSeen = 0;
  private lowest: { units: number; endMs: number } | null = null;
  /** Spend of answers that reported no balance, by when they ended: for the derived balance. */
  private readonly unreported: { endMs: number; units: number }[] = [];
  private passed = 0;
  private totalUnits = 0;

  constructor(options: BalanceStepsOptions = {}) {
    this.steps = new BalanceSteps(options);
  }

  /** Removes the reconciliation's temporary files when finish() will not be called. */
  dispose(): void {
    this.steps.dispose();
  }

  add(sample: Sample): void {
    if (sample.endpoint === 'create') return;
    const units = sampleCreditUnits(sample);
    const known = sample.credits_used !== null || units > 0;
    const model = this.models.get(sample.model) ?? { moments: new Moments(), passed: 0 };
    this.models.set(sample.model, model);
    if (sample.pass) {
      model.passed += 1;
      this.passed += 1;
    }
    if (!known) return;
    this.totalUnits += units;
    model.moments.add(units);
    const position = sample.turn === null || sample.case_id !== null ? 'case' : `turn ${sample.turn}`;
    const turn = this.turns.get(position) ?? new Moments();
    turn.add(units);
    this.turns.set(position, turn);
    this.steps.add(sample.item_id, sample.credits_used, sample.credits_remaining, checkCreditUnits(sample.checks));
    const endMs = sample.offset_ms + (sample.latency_ms ?? 0);
    if (sample.credits_remaining === null) {
      // Only what ends after the lowest balance seen matters (before any balance, nothing is kept:
      // memory stays with the answers in flight around the latest balance, not with the run).
      if (this.lowest !== null && endMs > this.lowest.endMs) this.unreported.push({ endMs, units });
      return;
    }
    const remainingUnits = toUnits(sample.credits_remaining);
    if (this.lowest === null || remainingUnits < this.lowest.units) {
      this.lowest = { units: remainingUnits, endMs };
      // Answers that ended before this balance are in it already.
      const kept = this.unreported.filter((u) => u.endMs > endMs);
      this.unreported.length = 0;
      this.unreported.push(...kept);
    }
    this.addTrace(Math.round(endMs), sample.credits_remaining);
  }

  private addTrace(offsetMs: number, credits: number): void {
    if (this.traceSeen++ % this.traceStride === 0) this.trace.push({ offset_ms: offsetMs, credits });
    if (this.trace.length >= 2 * MAX_TRACE) {
      this.trace = this.trace.filter((_, i) => i % 2 === 0);
      this.traceStride *= 2;
    }
  }

  private remaining(): RemainingReadout {
    if (this.lowest === null) return { credits: null, source: 'unknown', detail: NO_BALANCE };
    const after = this.unreported.filter((u) => u.endMs > this.lowest!.endMs).reduce((a, u) => a + u.units, 0);
    if (after === 0) return { credits: fromUnits(this.lowest.units), source: 'reported', detail: 'the lowest credits_remaining an answer reported' };
    return {
      credits: fromUnits(this.lowest.units - after), source: 'derived',
      detail: `the last reported balance less ${fromUnits(after)} credits spent since by answers that reported none`,
    };
  }

  finish(order: readonly string[], price?: { price: number; currency: string | null }): CreditsSummary {
    const models: Record<string, ModelCredits> = Object.create(null) as Record<string, ModelCredits>;
    const names = [...order.filter((m) => this.models.has(m)), ...[...this.models.keys()].filter((m) => !order.includes(m)).sort()];
    for (const name of names) {
      const m = this.models.get(name)!;
      const stats = m.moments.stats();
      models[name] = { ...stats, passed: m.passed, per_passed: m.passed > 0 ? roundCredits(stats.sum / m.passed) : null };
    }
    const turns: Record<string, CreditStats> = Object.create(null) as Record<string, CreditStats>;
    const rank = (p: string): number => (p === 'case' ? 0 : Number(p.slice(5)));
    const positions = [...this.turns.keys()].sort((a, b) => rank(a) - rank(b));
    for (const p of positions) turns[p] = this.turns.get(p)!.stats();
    const perPassed = this.passed > 0 ? roundCredits(fromUnits(this.totalUnits) / this.passed) : null;
    const remaining = this.remaining();
    const inMoney = (credits: number): number => Math.round(credits * (price?.price ?? 0) * 1e6) / 1e6;
    const money: CreditsMoney | null = price
      ? {
          credit_price: price.price, currency: price.currency, total: inMoney(fromUnits(this.totalUnits)),
          models: Object.fromEntries(Object.entries(models).map(([m, s]) => [m, inMoney(s.sum)])),
          per_passed: perPassed === null ? null : inMoney(perPassed), remaining: remaining.credits === null ? null : inMoney(remaining.credits),
        }
      : null;
    return {
      models, turns,
      per_passed: perPassed,
      money,
      remaining,
      remaining_over_run: [...this.trace].sort((a, b) => a.offset_ms - b.offset_ms),
      reconciliation: this.steps.reconcile(),
    };
  }
}
